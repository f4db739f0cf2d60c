import HTTPServer
import LatchkeyCore

/// `GET` (its one read is the bearer check), `PATCH` and `DELETE /v1/users/me`.
enum MeHandlers {
    static func get(_ request: Request, _ caller: Authenticated) -> Response {
        // The bearer check read the account together with the session, and while this
        // instance holds that copy the body made from it is kept with it (`UserMemo`).
        let body = caller.userMemo?.body { JSONResponses.user(caller.user) } ?? JSONResponses.user(caller.user)
        return JSONResponses.make(200, body)
    }

    static func patch(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let photoURL: ProfileChange.PhotoURL = switch try body.nullableString("photoURL") {
        case .none: .unchanged
        case .some(let url): .set(url)
        }
        let user = try await context.accounts.updateProfile(caller, ProfileChange(displayName: try body.stringIfPresent("displayName"), photoURL: photoURL))
        return JSONResponses.make(200, JSONResponses.user(user))
    }

    static func delete(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        try await context.accounts.deleteAccount(caller, password: try body.stringIfPresent("password"), from: context.clientAddress(request))
        return JSONResponses.noContent()
    }
}
