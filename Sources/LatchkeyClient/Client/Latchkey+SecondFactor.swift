import Foundation

/// A second factor: codes from an authenticator app (TOTP), with recovery codes for a lost
/// phone. Enrolling takes two calls, so a factor goes live only once the user has shown
/// their app makes the right codes.
extension Latchkey {
    /// Whether the signed-in account has a live factor, and its recovery codes left.
    public func secondFactorStatus() async throws -> SecondFactorStatus {
        try await authorized(APIRequest("GET", "/v1/auth/mfa"), as: SecondFactorStatus.self)
    }

    /// Starts enrolling an authenticator app (`INVALID_LOGIN_CREDENTIALS` for a wrong
    /// password; `MFA_ALREADY_ENABLED`). Calling it again replaces a secret still pending.
    public func enrollTOTP(password: String) async throws -> TOTPEnrollment {
        try await authorized(try .json("POST", "/v1/auth/mfa/totp", ["password": password]), as: TOTPEnrollment.self)
    }

    /// Turns the factor on with a first code from the app, and answers the 10 recovery
    /// codes, shown to the user this once (`MFA_CODE_INVALID`; `MFA_NOT_PENDING` without
    /// `enrollTOTP` first).
    public func confirmTOTP(code: String) async throws -> [String] {
        try await authorized(try .json("POST", "/v1/auth/mfa/totp/verify", ["code": code]), as: RecoveryCodeList.self).recoveryCodes
    }

    /// Turns the factor off, with its recovery codes (`INVALID_LOGIN_CREDENTIALS`;
    /// `NOT_FOUND` when it is off).
    public func removeTOTP(password: String) async throws {
        try await authorized(try .json("DELETE", "/v1/auth/mfa/totp", ["password": password]))
    }

    /// Ten new recovery codes; the old ones stop working (`NOT_FOUND` without a factor).
    public func replaceRecoveryCodes(password: String) async throws -> [String] {
        try await authorized(try .json("POST", "/v1/auth/mfa/recovery-codes", ["password": password]), as: RecoveryCodeList.self)
            .recoveryCodes
    }

    /// Finishes a sign-in stopped at `LatchkeyError.secondFactorRequired` with the app's
    /// current code (`MFA_CODE_INVALID`: wrong, or already used; `MFA_TOKEN_INVALID`: the
    /// challenge expired or was used up, so sign in again; `TOO_MANY_ATTEMPTS_TRY_LATER`).
    @discardableResult
    public func completeSignIn(_ challenge: SecondFactorChallenge, code: String) async throws -> User {
        try await startSession(try .json("POST", "/v1/auth/mfa/challenge", ["mfaToken": challenge.mfaToken, "code": code]))
    }

    /// As `completeSignIn(_:code:)`, with one of the recovery codes instead; it works once.
    @discardableResult
    public func completeSignIn(_ challenge: SecondFactorChallenge, recoveryCode: String) async throws -> User {
        try await startSession(
            try .json("POST", "/v1/auth/mfa/challenge", ["mfaToken": challenge.mfaToken, "recoveryCode": recoveryCode]))
    }
}
