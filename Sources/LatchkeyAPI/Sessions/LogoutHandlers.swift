import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/logout` (this session) and `POST /v1/auth/logout-all` (every session).
enum LogoutHandlers {
    static func logout(_ request: Request, _ context: APIContext) async throws -> Response {
        try await context.sessions.logout(try await context.authenticate(request))
        return JSONResponses.noContent()
    }

    static func logoutAll(_ request: Request, _ context: APIContext) async throws -> Response {
        try await context.sessions.logoutAll(try await context.authenticate(request))
        return JSONResponses.noContent()
    }
}
