import HTTPServer
import LatchkeyCore

/// `GET /v1/users/{id}` → PublicProfile (one primary-key read).
enum PublicProfileHandler {
    static func handle(_ request: Request, _ caller: Authenticated, _ reader: StoreReader, _ context: APIContext) throws -> Response {
        let profile = try context.accounts.profile(id: request.pathParameters["id"] ?? "", reader: reader)
        return JSONResponses.make(200, JSONResponses.publicProfile(profile))
    }
}
