import AuthCrypto
import SQLite

/// Checks a bearer token on every request, inline on the event loop: signature, key id,
/// expiry, issuer and audience, then one primary-key read that the session is still
/// active, so logout and revocation take effect at once.
public struct AccessTokenVerifier: Sendable {
    let keyring: Keyring
    let policy: AccountsPolicy

    public init(keyring: Keyring, policy: AccountsPolicy) {
        self.keyring = keyring
        self.policy = policy
    }

    public func verify(authorization: String?, reader: Connection, now: Int64 = UnixTime.now()) throws(AccessError) -> Authenticated {
        guard let authorization, authorization.count > 7,
              authorization.prefix(7).lowercased() == "bearer " else { throw .unauthenticated }
        let token = String(authorization.dropFirst(7)).trimmingSpaces()
        guard !token.isEmpty else { throw .unauthenticated }

        let claims: FlatJSONObject
        do {
            claims = try JWT.verifyFlatClaims(token, with: keyring, now: now)
        } catch .expired {
            throw .tokenExpired
        } catch {
            throw .invalidToken
        }
        guard claims.string("iss") == policy.issuer, claims.string("aud") == policy.audience,
              let userID = claims.string("sub"), let sessionID = claims.string("sid") else { throw .invalidToken }
        let session: Session?
        do {
            session = try SessionStore.session(id: sessionID, on: reader)
        } catch {
            throw .sessionRevoked  // an unreadable session is not an active one
        }
        guard let session, session.userID == userID, session.isActive(now: now, idleTimeout: policy.sessionIdleTimeout) else {
            throw .sessionRevoked
        }
        return Authenticated(userID: userID, sessionID: sessionID)
    }
}

extension String {
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
