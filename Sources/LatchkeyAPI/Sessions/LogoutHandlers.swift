import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/logout` (this session) and `POST /v1/auth/logout-all` (every session).
enum LogoutHandlers {
    static func logout(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        try await context.sessions.logout(caller)
        return JSONResponses.noContent()
    }

    static func logoutAll(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        try await context.sessions.logoutAll(caller)
        return JSONResponses.noContent()
    }
}
