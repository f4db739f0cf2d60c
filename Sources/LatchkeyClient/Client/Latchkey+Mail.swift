import Foundation

/// What goes by mail: password reset, address confirmation, moving to another address.
extension Latchkey {
    /// Mails a reset link when the address is registered. The server answers the same
    /// whether it is or not, so this succeeds for any well-formed address
    /// (`INVALID_EMAIL` otherwise).
    public func sendPasswordReset(email: String) async throws {
        try await anonymous(try .json("POST", "/v1/auth/password-reset", ["email": email]))
    }

    /// Sets a new password with the token of a reset link, for an app that opens the link
    /// itself (`RESET_TOKEN_INVALID`, `WEAK_PASSWORD`). Every session ends, this device's
    /// too: sign in again with the new password.
    public func confirmPasswordReset(token: String, newPassword: String) async throws {
        try await anonymous(try .json("POST", "/v1/auth/password-reset/confirm", ["token": token, "newPassword": newPassword]))
    }

    /// Mails the signed-in user a link that confirms the address (at most one a minute;
    /// `EMAIL_ALREADY_VERIFIED`).
    public func sendEmailVerification() async throws {
        try await authorized(APIRequest("POST", "/v1/auth/verify-email"))
    }

    /// Confirms an address with the token of a mailed link, for an app that opens the link
    /// itself (`VERIFY_TOKEN_INVALID`; `EMAIL_EXISTS` for an address change to an address
    /// taken since). Call `reloadUser()` afterwards to see the change.
    public func confirmEmail(token: String) async throws {
        try await anonymous(try .json("POST", "/v1/auth/verify-email/confirm", ["token": token]))
    }

    /// Starts moving the account to `newEmail`: a link goes to the new address and a notice
    /// to the old one; nothing changes until the link is followed, which ends every other
    /// session (`INVALID_EMAIL`, `EMAIL_EXISTS`, `INVALID_LOGIN_CREDENTIALS`).
    public func changeEmail(to newEmail: String, password: String) async throws {
        try await authorized(try .json("POST", "/v1/users/me/email", ["newEmail": newEmail, "password": password]))
    }
}
