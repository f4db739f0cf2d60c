import Foundation

/// Passkeys, as JSON calls that work on every platform: the app hands the options to its
/// platform's authenticator and the answer back. On Apple platforms
/// `registerPasskey(name:anchor:)` and `signInWithPasskey(anchor:)` do both steps.
extension Latchkey {
    /// A fresh challenge for a new passkey of the signed-in account.
    public func passkeyCreationOptions() async throws -> PasskeyCreationOptions {
        try await authorized(APIRequest("POST", "/v1/auth/passkeys/register/options"), as: PasskeyCreationOptions.self)
    }

    /// Stores the passkey the platform made (`CHALLENGE_INVALID`: the options expired or
    /// were used; `WEBAUTHN_INVALID` with `Problem.reason`; `PASSKEY_EXISTS`).
    @discardableResult
    public func registerPasskey(_ registration: PasskeyRegistration, name: String? = nil) async throws -> Passkey {
        struct Body: Encodable { let credential: PasskeyRegistration; let name: String? }
        return try await authorized(try .json("POST", "/v1/auth/passkeys/register", Body(credential: registration, name: name)), as: Passkey.self)
    }

    /// The signed-in account's passkeys.
    public func passkeys() async throws -> [Passkey] {
        try await authorized(APIRequest("GET", "/v1/auth/passkeys"), as: PasskeyList.self).passkeys
    }

    /// Renames one (1–64 characters; `NOT_FOUND`).
    @discardableResult
    public func renamePasskey(id: String, to name: String) async throws -> Passkey {
        try await authorized(try .json("PATCH", "/v1/auth/passkeys/\(APIRequest.encoded(id))", ["name": name]), as: Passkey.self)
    }

    /// Deletes one, with the account's password (`INVALID_LOGIN_CREDENTIALS`; `NOT_FOUND`;
    /// `LAST_SIGN_IN_METHOD` when nothing else would sign the account in). An account without
    /// a password passes none, as for `deleteAccount` (`RECENT_LOGIN_REQUIRED`).
    public func deletePasskey(id: String, password: String? = nil) async throws {
        try await authorized(try .json("DELETE", "/v1/auth/passkeys/\(APIRequest.encoded(id))", Self.passwordConfirmation(password)))
    }

    /// The body that confirms a change: the password, or `{}` for an account without one.
    static func passwordConfirmation(_ password: String?) -> [String: String] {
        password.map { ["password": $0] } ?? [:]
    }

    /// A fresh challenge for signing in with any passkey of this server: nobody types an
    /// email (`TOO_MANY_ATTEMPTS_TRY_LATER`).
    public func passkeyRequestOptions() async throws -> PasskeyRequestOptions {
        try await anonymous(APIRequest("POST", "/v1/auth/passkeys/login/options"), as: PasskeyRequestOptions.self)
    }

    /// Signs in with the platform's assertion (`CHALLENGE_INVALID`; `WEBAUTHN_INVALID` with
    /// `Problem.reason`; `PASSKEY_UNKNOWN`: deleted, or never this server's; `USER_DISABLED`).
    /// A passkey counts as two factors: no code is asked for.
    @discardableResult
    public func signIn(withPasskey assertion: PasskeyAssertion) async throws -> User {
        struct Body: Encodable { let credential: PasskeyAssertion; let deviceToken: String? }
        return try await startSession(
            try .json("POST", "/v1/auth/passkeys/login", Body(credential: assertion, deviceToken: await state.deviceToken())))
    }
}
