import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/passkeys/login/options` → 200 request options;
/// `POST /v1/auth/passkeys/login` → 200 TokenPair.
enum PasskeySignInHandlers {
    static func options(_ context: APIContext) -> Response {
        let options = context.core.passkeys.signInOptions()
        return JSONResponses.make(200, PasskeyJSON.requestOptions(options))
    }

    static func signIn(_ request: Request, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        try body.requireContainer("credential")
        let pair = try await context.core.passkeys.signIn(
            body: request.body, deviceToken: try body.optionalString("deviceToken"), from: context.clientAddress(request),
            userAgent: context.userAgent(request))
        return JSONResponses.make(200, JSONResponses.tokenPair(pair))
    }
}
