import Foundation

/// Signing up, in and out, the account itself, and the devices signed in to it.
extension Latchkey {
    /// Creates the account with its unique display name and signs it in here (the user is
    /// `online` from the start). Refusals carry every failed field at once
    /// (`INVALID_EMAIL`, `WEAK_PASSWORD`, `DISPLAY_NAME_INVALID`, `PASSWORDS_DO_NOT_MATCH`,
    /// `EMAIL_EXISTS`, `DISPLAY_NAME_TAKEN`): show `error.detail(for: "email")` and so on.
    @discardableResult
    public func signUp(email: String, password: String, displayName: String, confirmPassword: String? = nil) async throws -> User {
        struct Body: Encodable { let email, password, displayName: String; let confirmPassword: String? }
        let body = Body(email: email, password: password, displayName: displayName, confirmPassword: confirmPassword)
        return try await startSession(try .json("POST", "/v1/auth/signup", body))
    }

    /// Signs in with email and password (`INVALID_LOGIN_CREDENTIALS` for an unknown email
    /// and a wrong password alike; `USER_DISABLED`; `TOO_MANY_ATTEMPTS_TRY_LATER` with
    /// `retryAfter`). Sends this device's device token when the store kept one, so a
    /// stranger's guesses at the account cannot lock this device out.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> User {
        var body = ["email": email, "password": password]
        body["deviceToken"] = await state.deviceToken()
        return try await startSession(try .json("POST", "/v1/auth/login", body))
    }

    /// Ends this device's session on the server and forgets it here. The local sign-out
    /// happens whatever the network does, since the user asked to leave; the answer says
    /// whether the server confirmed it. When it did not (offline), the refresh token is
    /// gone from this device all the same and the server ends the session once it has
    /// been idle for its `sessionIdleTimeout`.
    @discardableResult
    public func signOut() async -> Bool {
        var confirmed: Bool
        do {
            try await authorized(APIRequest("POST", "/v1/auth/logout", timeout: configuration.refreshAttemptTimeout))
            confirmed = true
        } catch LatchkeyError.sessionEnded, LatchkeyError.notSignedIn {
            confirmed = true  // already over on the server, or never begun
        } catch {
            confirmed = false
        }
        await state.signOutLocally()
        return confirmed
    }

    /// Ends every session of the user, on every device, then signs out here. Unlike
    /// `signOut()` this needs the server: when it cannot be reached, nothing changes.
    public func signOutEverywhere() async throws {
        try await authorized(APIRequest("POST", "/v1/auth/logout-all"))
        await state.signOutLocally()
    }

    /// Asks the server for the signed-in user (`GET /v1/users/me`): after the email was
    /// confirmed elsewhere, say. Firebase's `user.reload()`.
    @discardableResult
    public func reloadUser() async throws -> User {
        try await authorizedUser { try await self.transport.send(APIRequest("GET", "/v1/users/me"), token: $0) }
    }

    /// Sets a new password. The server ends every other session and answers a new one for
    /// this device, which takes the old one's place here (`INVALID_LOGIN_CREDENTIALS` for a
    /// wrong current password, `WEAK_PASSWORD`).
    @discardableResult
    public func changePassword(currentPassword: String, newPassword: String) async throws -> User {
        let request = try APIRequest.json("POST", "/v1/auth/password", ["currentPassword": currentPassword, "newPassword": newPassword])
        let sentAt = Date()
        let (answer, epoch) = try await authorized { try await self.transport.send(request, token: $0) }
        let pair = try answer.decoded(TokenPair.self)
        guard epoch == (await state.epoch) else { throw LatchkeyError.notSignedIn }
        return await state.signIn(with: pair, sentAt: sentAt)
    }

    /// Deletes the account with its name, presence, sessions and pictures, then signs out
    /// here (`INVALID_LOGIN_CREDENTIALS` for a wrong password). An account without a
    /// password (made by Apple, Google or another provider) passes none, right after a sign-in:
    /// `RECENT_LOGIN_REQUIRED` when this session signed in more than 5 minutes ago (sign in
    /// with the provider again, then retry).
    public func deleteAccount(password: String? = nil) async throws {
        try await authorized(try .json("DELETE", "/v1/users/me", Self.passwordConfirmation(password)))
        await state.signOutLocally()
    }

    /// The devices signed in to the account ("where you're signed in"); `current` marks
    /// this one.
    public func sessions() async throws -> [Session] {
        try await authorized(APIRequest("GET", "/v1/auth/sessions"), as: SessionList.self).sessions
    }

    /// Ends one of the user's sessions (`NOT_FOUND` when it is not one of theirs). Ending
    /// this device's own session signs out here too.
    public func revokeSession(id: String) async throws {
        let (answer, epoch) = try await authorized {
            try await self.transport.send(APIRequest("DELETE", "/v1/auth/sessions/\(APIRequest.encoded(id))"), token: $0)
        }
        try answer.expectSuccess()
        if let current = await state.session, AccessTokenClaims.sessionID(of: current.accessToken) == id {
            await state.sessionEnded(epoch: epoch)
        }
    }
}
