import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/password` → 200 TokenPair for a new session; every other session ends.
enum ChangePasswordHandler {
    static func handle(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let pair = try await context.accounts.changePassword(
            caller, current: try body.string("currentPassword"), new: try body.string("newPassword"),
            from: context.clientAddress(request), userAgent: context.userAgent(request)
        )
        return JSONResponses.make(200, JSONResponses.tokenPair(pair))
    }
}
