import HTTPServer

/// Passkeys (WebAuthn): registering one for the signed-in account, listing, renaming and
/// deleting them, and signing in with one alone. The sign-in routes draw on the login
/// budget per address, as a password login does.
enum PasskeysRoutes {
    static func bind(_ routes: inout Routes, _ context: APIContext) {
        let json = JSONBody.admission
        routes.write("POST", "/v1/auth/passkeys/register/options", auth: .bearer) { try await PasskeyRegistrationHandlers.options($0, $1, context) }
        routes.write("POST", "/v1/auth/passkeys/register", auth: .bearer, admit: json) { try await PasskeyRegistrationHandlers.register($0, $1, context) }
        routes.read("/v1/auth/passkeys", auth: .bearer) { try PasskeyListHandlers.list($0, $1, $2, context) }
        routes.write("PATCH", "/v1/auth/passkeys/{id}", auth: .bearer, admit: json) { try await PasskeyListHandlers.rename($0, $1, context) }
        routes.write("DELETE", "/v1/auth/passkeys/{id}", auth: .bearer, admit: json) { try await PasskeyListHandlers.delete($0, $1, context) }
        // Answered on the event loop: a sign-in challenge is made and checked without the store.
        routes.plain("POST", "/v1/auth/passkeys/login/options", throttle: .login) { _ in PasskeySignInHandlers.options(context) }
        routes.write("POST", "/v1/auth/passkeys/login", admit: json, throttle: .login) { try await PasskeySignInHandlers.signIn($0, context) }
    }
}
