import HTTPServer
import LatchkeyCore

/// `GET /v1/auth/sessions` and `DELETE /v1/auth/sessions/{id}`.
enum SessionsHandlers {
    static func list(_ request: Request, _ caller: Authenticated, _ reader: StoreReader, _ context: APIContext) throws -> Response {
        let sessions = try context.sessions.sessions(of: caller, reader: reader)
        return JSONResponses.make(200, JSONResponses.sessions(sessions, current: caller.sessionID))
    }

    static func delete(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        try await context.sessions.delete(request.pathParameters["id"] ?? "", of: caller)
        return JSONResponses.noContent()
    }
}
