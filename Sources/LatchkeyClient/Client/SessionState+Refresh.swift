import Foundation

/// Refreshing: ahead of expiry when a call is made, and after a 401 `TOKEN_EXPIRED`. One
/// refresh at a time however many calls need it (single flight): the first starts it, the
/// rest await the same task, so a burst of failing calls costs one `POST /v1/auth/refresh`.
extension SessionState {
    /// Attempts one refresh makes at most; the retry window usually ends it sooner.
    static let maximumRefreshAttempts = 8

    /// Whether a refusal means the session is over on the server, so this device signs out:
    /// a reused refresh token (someone else refreshed with a copy), one the server does not
    /// know (the session was revoked or expired), or a revoked session.
    static func endsSession(_ problem: Problem) -> Bool {
        problem.status == 401 && [.refreshTokenReused, .invalidRefreshToken, .sessionRevoked].contains(problem.code)
    }

    /// A token to send now: the current one, refreshed first once it is due.
    func credential() async throws -> Credential {
        await loadIfNeeded()
        guard let session else { throw LatchkeyError.notSignedIn }
        persistIfUnsaved()
        if Date() >= session.refreshAfter {
            do {
                _ = try await refreshed(replacing: session.accessToken)
            } catch LatchkeyError.network(let failure) {
                // Offline ahead of expiry: the token still works for a while, so the call
                // may go on with it; past expiry there is nothing to send.
                guard let current = self.session, Date() < current.accessTokenExpiresAt else { throw LatchkeyError.network(failure) }
            }
        }
        guard let current = self.session else { throw LatchkeyError.notSignedIn }
        return Credential(accessToken: current.accessToken, epoch: epoch)
    }

    /// A token to retry with after `failed` was refused as expired or unknown: the one a
    /// concurrent refresh already brought, or a new one.
    func renewed(after failed: Credential) async throws -> Credential {
        guard failed.epoch == epoch, let session else { throw LatchkeyError.notSignedIn }
        if session.accessToken == failed.accessToken {
            _ = try await refreshed(replacing: failed.accessToken)
        }
        guard failed.epoch == epoch, let current = self.session else { throw LatchkeyError.notSignedIn }
        return Credential(accessToken: current.accessToken, epoch: epoch)
    }

    /// The session after a refresh of the one whose access token is `staleAccessToken`:
    /// joins the refresh in flight, or returns at once when the token was already replaced,
    /// or starts the refresh. A refresh is never started from an older refresh token than
    /// the current one (which, past the server's grace, would read as theft).
    func refreshed(replacing staleAccessToken: String) async throws -> StoredSession {
        if let inFlightRefresh { return try await inFlightRefresh.task.value }
        guard let session else { throw LatchkeyError.notSignedIn }
        if session.accessToken != staleAccessToken { return session }
        let (id, epoch) = (UUID(), self.epoch)
        // Unstructured on purpose: a caller that is cancelled must not cancel the refresh
        // the others are waiting for.
        let task = Task { try await self.performRefresh(of: session, epoch: epoch) }
        inFlightRefresh = (id, task)
        defer { if inFlightRefresh?.id == id { inFlightRefresh = nil } }
        return try await task.value
    }

    /// `POST /v1/auth/refresh`, retried after network failures within the retry window:
    /// within the server's reuse grace the same refresh token answers the same next token,
    /// so a retry after a lost answer is safe. A network failure never signs out; a
    /// refusal that ends the session does.
    private func performRefresh(of session: StoredSession, epoch: Int) async throws -> StoredSession {
        let request = try APIRequest.json(
            "POST", "/v1/auth/refresh", ["refreshToken": session.refreshToken], timeout: configuration.refreshAttemptTimeout)
        let started = Date()
        var lastFailure = NetworkFailure(urlErrorCode: nil, description: "no refresh attempt was made")
        for attempt in 1...Self.maximumRefreshAttempts {
            let sentAt = Date()
            let answer: HTTPAnswer
            do {
                answer = try await transport.send(request, token: nil)
            } catch LatchkeyError.network(let failure) {
                lastFailure = failure
                let pause = configuration.refreshBackoff.delay(afterFailures: attempt)
                guard Date().timeIntervalSince(started) + pause < configuration.refreshRetryWindow else { break }
                try await Task.sleep(for: .seconds(pause))
                continue
            }
            // Signed out, or someone else signed in, while the answer travelled: drop it.
            guard epoch == self.epoch else { throw LatchkeyError.notSignedIn }
            if let problem = answer.problem, Self.endsSession(problem) {
                await signOutLocally()
                throw LatchkeyError.sessionEnded(problem)
            }
            return await install(try answer.decoded(TokenPair.self), sentAt: sentAt)
        }
        throw LatchkeyError.network(lastFailure)
    }
}
