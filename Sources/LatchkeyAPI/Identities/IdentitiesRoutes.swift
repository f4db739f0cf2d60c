import HTTPServer

/// Signing in with a provider's ID token (Apple, Google, OpenID Connect providers), and the
/// signed-in account's identities. The sign-in draws on the login budget per address, as a
/// password login does.
enum IdentitiesRoutes {
    static func bind(_ routes: inout Routes, _ context: APIContext) {
        let json = JSONBody.admission
        routes.write("POST", "/v1/auth/idp/{provider}", admit: json, throttle: .login) { try await IdentityHandlers.signIn($0, context) }
        // Apple's servers call it: no bearer, no login throttle (Apple's signature is the
        // authentication; a forged payload costs one signature check, and an unknown `kid`
        // fetches Apple's keys at most once a minute).
        routes.write("POST", "/v1/auth/idp/apple/notifications", admit: json) { try await IdentityHandlers.appleNotification($0, context) }
        routes.read("/v1/auth/identities", auth: .bearer) { try IdentityHandlers.list($0, $1, $2, context) }
        routes.write("POST", "/v1/auth/identities/{provider}", auth: .bearer, admit: json, throttle: .login) {
            try await IdentityHandlers.link($0, $1, context)
        }
        routes.write("DELETE", "/v1/auth/identities/{provider}", auth: .bearer) { try await IdentityHandlers.unlink($0, $1, context) }
    }
}
