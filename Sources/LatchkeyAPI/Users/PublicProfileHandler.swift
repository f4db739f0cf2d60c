import HTTPServer
import LatchkeyCore

/// `GET /v1/users/{id}` → PublicProfile (inline: one primary-key read).
enum PublicProfileHandler {
    static func handle(_ request: Request, _ context: APIContext) throws -> Response {
        _ = try context.authenticateInline(request)
        let profile = try context.accounts.profile(id: request.pathParameters["id"] ?? "", reader: context.reader(request))
        return JSONResponses.make(200, JSONResponses.publicProfile(profile))
    }
}
