import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/signup` → 201 TokenPair.
enum SignupHandler {
    static func handle(_ request: Request, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let form = SignupForm(
            email: try body.string("email"), password: try body.string("password"),
            displayName: try body.string("displayName"), confirmPassword: try body.optionalString("confirmPassword")
        )
        let pair = try await context.accounts.signup(form, userAgent: context.userAgent(request))
        return JSONResponses.make(201, JSONResponses.tokenPair(pair))
    }
}
