import Foundation

/// Signing in with Apple, Google or another OpenID Connect provider: the app signs the
/// user in with the platform's SDK and hands its ID token over. Errors:
/// `IDP_TOKEN_INVALID` (with `Problem.reason`), `ACCOUNT_EXISTS` (sign in the old way,
/// then `link`), `USER_DISABLED`, `IDP_UNAVAILABLE`, `NOT_FOUND` (provider not configured).
extension Latchkey {
    /// The pieces of an `ASAuthorizationAppleIDCredential`: `identityToken` and
    /// `authorizationCode` as UTF-8 text, the raw nonce the app hashed into the request,
    /// and the name Apple shares on the first sign-in only (the server does not claim it:
    /// ask the user for a display name when `User.displayName` is nil).
    public struct AppleSignIn: Sendable {
        public var identityToken: String
        public var authorizationCode: String?
        public var rawNonce: String?
        public var givenName: String?
        public var familyName: String?

        public init(identityToken: String, authorizationCode: String? = nil, rawNonce: String? = nil, givenName: String? = nil, familyName: String? = nil) {
            self.identityToken = identityToken
            self.authorizationCode = authorizationCode
            self.rawNonce = rawNonce
            self.givenName = givenName
            self.familyName = familyName
        }
    }

    private struct IdentityBody: Encodable {
        let idToken: String
        let nonce: String?
        let authorizationCode: String?
        let givenName: String?
        let familyName: String?
        let deviceToken: String?
    }

    /// Sign in with Apple.
    @discardableResult
    public func signIn(withApple apple: AppleSignIn) async throws -> User {
        try await signIn(provider: "apple", body: IdentityBody(
            idToken: apple.identityToken, nonce: apple.rawNonce, authorizationCode: apple.authorizationCode,
            givenName: apple.givenName, familyName: apple.familyName, deviceToken: await state.deviceToken()))
    }

    /// Sign in with Google: the `idToken` of Google's sign-in result, and the nonce the
    /// app asked it to carry, if any.
    @discardableResult
    public func signIn(withGoogleIDToken idToken: String, nonce: String? = nil) async throws -> User {
        try await signIn(provider: "google", idToken: idToken, nonce: nonce)
    }

    /// Any provider the server configures, by its name (`oidcProviders`).
    @discardableResult
    public func signIn(provider: String, idToken: String, nonce: String? = nil) async throws -> User {
        try await signIn(provider: provider, body: IdentityBody(
            idToken: idToken, nonce: nonce, authorizationCode: nil, givenName: nil, familyName: nil, deviceToken: await state.deviceToken()))
    }

    private func signIn(provider: String, body: IdentityBody) async throws -> User {
        try await startSession(try .json("POST", "/v1/auth/idp/\(APIRequest.encoded(provider))", body))
    }

    /// The signed-in account's identities, and whether it has a password.
    public func identities() async throws -> IdentityList {
        try await authorized(APIRequest("GET", "/v1/auth/identities"), as: IdentityList.self)
    }

    /// Links the provider's identity of a fresh ID token to the signed-in account
    /// (`IDENTITY_IN_USE`: linked to another account, or this one holds another of the provider).
    @discardableResult
    public func link(provider: String, idToken: String, nonce: String? = nil, authorizationCode: String? = nil) async throws -> Identity {
        struct Body: Encodable { let idToken: String; let nonce: String?; let authorizationCode: String? }
        return try await authorized(
            try .json("POST", "/v1/auth/identities/\(APIRequest.encoded(provider))", Body(idToken: idToken, nonce: nonce, authorizationCode: authorizationCode)),
            as: Identity.self)
    }

    /// Links Sign in with Apple to the signed-in account.
    @discardableResult
    public func link(apple: AppleSignIn) async throws -> Identity {
        try await link(provider: "apple", idToken: apple.identityToken, nonce: apple.rawNonce, authorizationCode: apple.authorizationCode)
    }

    /// `NOT_FOUND`; `LAST_SIGN_IN_METHOD` when nothing else would sign the account in.
    public func unlink(provider: String) async throws {
        try await authorized(APIRequest("DELETE", "/v1/auth/identities/\(APIRequest.encoded(provider))"))
    }
}
