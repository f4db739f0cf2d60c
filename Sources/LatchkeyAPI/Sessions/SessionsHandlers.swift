import HTTPServer
import LatchkeyCore

/// `GET /v1/auth/sessions` (inline) and `DELETE /v1/auth/sessions/{id}`.
enum SessionsHandlers {
    static func list(_ request: Request, _ context: APIContext) throws -> Response {
        let caller = try context.authenticateInline(request)
        let sessions = try context.sessions.sessions(of: caller, reader: context.reader(request))
        return JSONResponses.make(200, JSONResponses.sessions(sessions, current: caller.sessionID))
    }

    static func delete(_ request: Request, _ context: APIContext) async throws -> Response {
        let caller = try await context.authenticate(request)
        try await context.sessions.delete(request.pathParameters["id"] ?? "", of: caller)
        return JSONResponses.noContent()
    }
}
