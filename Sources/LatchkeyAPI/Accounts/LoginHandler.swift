import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/login` → 200 TokenPair, or 200 `{"mfaRequired": true, …}` for an account
/// with a live second factor (`FactorResponses.challenge`).
enum LoginHandler {
    static func handle(_ request: Request, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let outcome = try await context.accounts.login(
            email: try body.string("email"), password: try body.string("password"), deviceToken: try body.optionalString("deviceToken"),
            from: context.clientAddress(request), userAgent: context.userAgent(request)
        )
        switch outcome {
        case .signedIn(let pair): return JSONResponses.make(200, JSONResponses.tokenPair(pair))
        case .secondFactorRequired(let challenge): return JSONResponses.make(200, FactorResponses.challenge(challenge))
        }
    }
}
