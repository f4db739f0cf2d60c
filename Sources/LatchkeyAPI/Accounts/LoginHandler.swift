import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/login` → 200 TokenPair.
enum LoginHandler {
    static func handle(_ request: Request, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let pair = try await context.accounts.login(
            email: try body.string("email"), password: try body.string("password"), deviceToken: try body.optionalString("deviceToken"),
            from: context.clientAddress(request), userAgent: context.userAgent(request)
        )
        return JSONResponses.make(200, JSONResponses.tokenPair(pair))
    }
}
