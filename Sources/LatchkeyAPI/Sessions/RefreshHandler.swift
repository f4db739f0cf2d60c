import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/refresh` → 200 TokenPair with a new refresh token.
enum RefreshHandler {
    static func handle(_ request: Request, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let pair = try await context.sessions.refresh(try body.string("refreshToken"))
        return JSONResponses.make(200, JSONResponses.tokenPair(pair))
    }
}
