import AuthCrypto
import FlatJSON

/// Checks a bearer token on every request: signature, key id, expiry, issuer and audience
/// on the event loop, then that the session is still active, from this instance's copy
/// (`SessionCache`, which account events empty) or else one primary-key read, so logout
/// and revocation take effect at once. That read is inline on SQLite; on PostgreSQL it
/// joins a batch (`SessionReadBatches`).
public struct AccessTokenVerifier: Sendable {
    let keys: CurrentKeyring
    let policy: AccountsPolicy
    let sessions: SessionCache

    public init(keys: CurrentKeyring, policy: AccountsPolicy, sessions: SessionCache) {
        self.keys = keys
        self.policy = policy
        self.sessions = sessions
    }

    /// On `reader`, on the calling thread; `cache`, when given, belongs to that thread
    /// (see `VerifiedTokenCache`).
    public func verify(
        authorization: String?, reader: StoreReader, cache: VerifiedTokenCache? = nil, now: Int64 = UnixTime.now()
    ) throws -> Authenticated {
        try verify(authorization, cache: cache, now: now) { sessionID in
            try reader.read { db in try SessionStore.sessionWithUser(id: sessionID, on: db) }
        }
    }

    /// Where reads cross the network: the token's own checks here, on the calling thread
    /// (and `cache`, an event loop's, when it runs on one), and the session read in the
    /// next of `batches`; `completion` runs on the batch's thread.
    public func verify(
        authorization: String?, cache: VerifiedTokenCache?, batches: SessionReadBatches, now: Int64 = UnixTime.now(),
        completion: @escaping @Sendable (Result<Authenticated, any Error>) -> Void
    ) {
        let claims: VerifiedTokenCache.Entry
        do {
            claims = try self.claims(authorization, cache: cache, now: now)
        } catch {
            return completion(.failure(error))
        }
        if let held = held(claims, now: now) { return completion(.success(held)) }
        let (policy, sessions, ticket) = (policy, sessions, sessions.ticket(for: claims.userID))
        batches.find(claims.sessionID) { found in
            completion(Result { try Self.authenticated(claims, found: found.get(), now: now, policy: policy, keepingIn: sessions, ticket) })
        }
    }

    /// The token's own checks (signature, key, expiry, issuer, audience) without the
    /// session read: what a route can check from the head alone, before it reads a large
    /// body. `verify` still runs in the handler.
    public func checkSignedToken(authorization: String?, now: Int64 = UnixTime.now()) throws(AccessError) {
        guard let token = Self.bearerToken(authorization) else { throw .unauthenticated }
        _ = try verifySignedClaims(token, now: now)
    }

    private func verify(
        _ authorization: String?, cache: VerifiedTokenCache?, now: Int64,
        readSession: (String) throws -> (session: Session, user: User)?
    ) throws -> Authenticated {
        let claims = try claims(authorization, cache: cache, now: now)
        if let held = held(claims, now: now) { return held }
        let ticket = sessions.ticket(for: claims.userID)
        // A failed read is the server's fault (500), not a revocation: a client told
        // SESSION_REVOKED would throw its tokens away.
        return try Self.authenticated(claims, found: readSession(claims.sessionID), now: now, policy: policy, keepingIn: sessions, ticket)
    }

    /// The caller from this instance's copy of the session, if it holds it active; nil
    /// sends the check to the store.
    private func held(_ claims: VerifiedTokenCache.Entry, now: Int64) -> Authenticated? {
        guard let (session, user, memo) = sessions.find(userID: claims.userID, sessionID: claims.sessionID),
              session.isActive(now: now, policy: policy) else { return nil }
        return Authenticated(userID: claims.userID, sessionID: claims.sessionID, user: user, userMemo: memo)
    }

    /// The signed claims of the bearer token, from `cache` when it verified them already.
    private func claims(_ authorization: String?, cache: VerifiedTokenCache?, now: Int64) throws -> VerifiedTokenCache.Entry {
        guard let token = Self.bearerToken(authorization) else { throw AccessError.unauthenticated }
        if let cached = cache?.entry(for: token), cached.keyringGeneration == keys.generation {
            guard now <= cached.expiry + Self.leeway else { throw AccessError.tokenExpired }
            return cached
        }
        let claims = try verifySignedClaims(token, now: now)
        cache?.store(claims, for: token)
        return claims
    }

    /// The caller, if the session the claims name is still active for their user; kept in
    /// `sessions` if so.
    private static func authenticated(
        _ claims: VerifiedTokenCache.Entry, found: (session: Session, user: User)?, now: Int64, policy: AccountsPolicy,
        keepingIn sessions: SessionCache, _ ticket: SessionCache.Ticket?
    ) throws -> Authenticated {
        guard let found, found.session.userID.utf8.elementsEqual(claims.userID.utf8), !found.user.disabled,
              found.session.isActive(now: now, policy: policy) else {
            throw AccessError.sessionRevoked
        }
        sessions.store(found.session, of: found.user, ticket: ticket)
        return Authenticated(userID: claims.userID, sessionID: claims.sessionID, user: found.user)
    }

    /// The clock skew allowed on `exp`. The server checks its own tokens against its own
    /// clock, so only the rounding of whole seconds needs room (ARCHITECTURE: at most 1 s).
    static let leeway: Int64 = 1

    private func verifySignedClaims(_ token: String, now: Int64) throws(AccessError) -> VerifiedTokenCache.Entry {
        let claims: FlatJSONObject
        let (keyring, generation) = keys.snapshot
        do {
            claims = try JWT.verifyFlatClaims(token, with: keyring, now: now, leeway: Self.leeway)
        } catch .expired {
            throw .tokenExpired
        } catch {
            throw .invalidToken
        }
        guard claims.string("iss") == policy.issuer, claims.string("aud") == policy.audience,
              let userID = claims.string("sub"), let sessionID = claims.string("sid"),
              let expiry = claims.integer("exp") else { throw .invalidToken }
        return VerifiedTokenCache.Entry(userID: userID, sessionID: sessionID, expiry: expiry, keyringGeneration: generation)
    }
}

extension AccessTokenVerifier {
    /// The token of `Bearer <token>` (scheme in any case, RFC 9110 §11.1), read on UTF-8
    /// code units: this runs on every authenticated request.
    static func bearerToken(_ authorization: String?) -> String? {
        guard var text = authorization, text.utf8.count > scheme.count else { return nil }
        // On the contiguous bytes: a zip of two `UTF8View`s cost more than the rest of this.
        let bounds = text.withUTF8 { bytes -> Range<Int>? in
            for index in scheme.indices where bytes[index] | 0x20 != scheme[index] { return nil }
            guard let first = bytes[scheme.count...].firstIndex(where: { $0 != UInt8(ascii: " ") }),
                  let last = bytes[scheme.count...].lastIndex(where: { $0 != UInt8(ascii: " ") }) else { return nil }
            return first..<(last + 1)
        }
        guard let bounds else { return nil }
        let utf8 = text.utf8
        return String(text[utf8.index(utf8.startIndex, offsetBy: bounds.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: bounds.upperBound)])
    }

    /// `Bearer ` in lower case: each byte of the header's scheme is compared with its case
    /// bit set (`B` | 0x20 is `b`; a space is a space).
    private static let scheme = Array("bearer ".utf8)
}
