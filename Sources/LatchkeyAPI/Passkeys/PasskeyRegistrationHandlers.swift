import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/passkeys/register/options` → 200 creation options;
/// `POST /v1/auth/passkeys/register` → 201 Passkey.
enum PasskeyRegistrationHandlers {
    static func options(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let options = try await context.core.passkeys.registrationOptions(for: caller)
        return JSONResponses.make(200, PasskeyJSON.creationOptions(options))
    }

    static func register(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        try body.requireContainer("credential")
        let passkey = try await context.core.passkeys.register(
            caller, body: request.body, name: try body.optionalString("name"), from: context.clientAddress(request))
        return JSONResponses.make(201, PasskeyJSON.passkey(passkey))
    }
}
