import AuthCrypto

/// Signing in with a provider's ID token (Apple, Google, an OpenID Connect provider), and
/// the signed-in account's identities: listed, linked, unlinked.
public struct IdentityService: Sendable {
    let database: Database
    let issuer: TokenIssuer
    let events: AccountEvents
    let mailQueued: @Sendable () -> Void
    /// By name, as `/v1/auth/idp/{provider}` names them.
    let providers: [String: IdentityProvider]
    let keys: ProviderKeys
    /// Sign in with Apple's server side (the code exchange); nil without Apple's server
    /// settings, and then an `authorizationCode` is ignored.
    let appleTokens: AppleRefreshTokens?

    init(
        database: Database, issuer: TokenIssuer, events: AccountEvents, mailQueued: @escaping @Sendable () -> Void,
        providers: [IdentityProvider], fetcher: any ProviderDocumentFetcher, appleTokens: AppleRefreshTokens?
    ) {
        self.database = database
        self.appleTokens = appleTokens
        self.issuer = issuer
        self.events = events
        self.mailQueued = mailQueued
        self.providers = Dictionary(providers.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        keys = ProviderKeys(fetcher: fetcher)
    }

    /// What a sign-in answers: the pair, and whether it made the account (201) or found it (200).
    public struct SignIn: Sendable {
        public let pair: TokenPair
        public let created: Bool
    }

    /// The provider's ID token checked (`verify`), then, in one write: the account its
    /// identity belongs to; else the account of its address, linked when both sides
    /// verified that address; else a new account without password or display name.
    /// `deviceToken`, when valid for the account, comes back in the pair; a provider
    /// sign-in makes none (device tokens spare a device the password throttle).
    /// `authorizationCode` (Apple's) is exchanged once the sign-in is written
    /// (`keepAppleToken`).
    public func signIn(
        provider name: String, idToken: String, nonce: String?, authorizationCode: String? = nil, deviceToken: String?, from address: String,
        userAgent: String?
    ) async throws -> SignIn {
        let provider = try provider(named: name)
        let identity = try await verify(idToken, nonce: nonce, for: provider)
        let email = identity.email.flatMap { if case .success(let valid) = EmailRules.normalize($0) { valid } else { nil } }
        let (issuer, events) = (issuer, events)
        let outcome = try await database.write { db -> Result<(user: User, refresh: String, sessionID: String, epoch: Int64, created: Bool, ended: EndedAccess?), any Error> in
            let now = UnixTime.now()
            var created = false
            var ended: EndedAccess?
            var found = try IdentityStore.owner(provider: provider.name, subject: identity.subject, on: db)
            if found == nil {
                switch try Self.accountJoining(identity, email: email, provider: provider, events: events, address: address, now: now, on: db) {
                case .success(let joined): (created, ended) = joined
                case .failure(let error): return .failure(error)
                }
                found = try IdentityStore.owner(provider: provider.name, subject: identity.subject, on: db)
            }
            guard case let (user, epoch)? = found else { return .failure(IdentityError.accountExists) }
            guard !user.disabled else {
                try AuditStore.append(.loginFailed, user: user.id, address: address, detail: "account disabled", now: now, on: db)
                return .failure(AccountError.userDisabled)
            }
            try AccountStore.setPresence("online", for: user.id, now: now, on: db)
            let methods: SignInMethods = identity.multiFactor ? .federatedMultiFactor : .federated
            let (refresh, sessionID) = try AccountService.startSession(for: user.id, by: methods, userAgent: userAgent, now: now, issuer: issuer, on: db)
            try AuditStore.append(.login, user: user.id, address: address, session: sessionID, detail: provider.name, now: now, on: db)
            return .success((user, refresh, sessionID, epoch, created, ended))
        }
        let signedIn = try outcome.get()
        if let ended = signedIn.ended {
            mailQueued()
            await events.published(ended)
        }
        await keepAppleToken(authorizationCode, of: identity, provider: provider, userID: signedIn.user.id)
        let methods: SignInMethods = identity.multiFactor ? .federatedMultiFactor : .federated
        var pair = try issuer.pair(for: signedIn.user, sessionID: signedIn.sessionID, methods: methods, refreshToken: signedIn.refresh, now: UnixTime.now())
        if let device = deviceToken.flatMap({ DeviceToken(verifying: $0, userID: signedIn.user.id, epoch: signedIn.epoch, key: issuer.deviceKey) }) {
            pair = issuer.withDeviceToken(pair, userID: signedIn.user.id, epoch: signedIn.epoch, device: device)
        }
        return SignIn(pair: pair, created: signedIn.created)
    }

    /// Links an identity no account holds yet to the account it joins, in the sign-in's
    /// write: the account of its address, when both sides verified that address; else a new
    /// account without password or display name (`created`).
    private static func accountJoining(
        _ identity: VerifiedIdentity, email: ValidEmail?, provider: IdentityProvider, events: AccountEvents, address: String, now: Int64,
        on db: StoreConnection
    ) throws -> Result<(created: Bool, ended: EndedAccess?), any Error> {
        guard let email, let holder = try AccountStore.credentials(emailKey: email.key, on: db)?.user else {
            let userID = RandomID.make()
            try AccountStore.insertProviderUser(id: userID, email: email, emailVerified: identity.emailVerified, now: now, on: db)
            _ = try IdentityStore.insert(provider: provider.name, subject: identity.subject, userID: userID, email: email?.address, now: now, on: db)
            try AuditStore.append(.signup, user: userID, address: address, detail: provider.name, now: now, on: db)
            return .success((true, nil))
        }
        guard holder.emailVerified, identity.emailVerified else {
            try AuditStore.append(.loginFailed, user: holder.id, address: address, detail: "\(provider.name): address of an account, unverified", now: now, on: db)
            return .failure(IdentityError.accountExists)
        }
        guard !holder.disabled else {
            try AuditStore.append(.loginFailed, user: holder.id, address: address, detail: "account disabled", now: now, on: db)
            return .failure(AccountError.userDisabled)
        }
        if try IdentityStore.identity(of: holder.id, provider: provider.name, on: db) != nil {
            // The account holds another identity of this provider: not this one's to take.
            return .failure(IdentityError.accountExists)
        }
        _ = try IdentityStore.insert(provider: provider.name, subject: identity.subject, userID: holder.id, email: email.address, now: now, on: db)
        let ended = try events.record(.signInMethodChanged(.identityLinked(provider: provider.name)), userID: holder.id, address: address, now: now, on: db)
        return .success((false, ended))
    }

    public func list(of caller: Authenticated, reader: StoreReader) throws -> IdentityList {
        try reader.read { db in
            IdentityList(
                identities: try IdentityStore.identities(of: caller.userID, on: db),
                hasPassword: try !(AccountStore.passwordHash(userID: caller.userID, on: db) ?? "").isEmpty)
        }
    }

    /// Links the identity of a fresh ID token to the caller's account. The same identity
    /// linked already to the caller answers it again.
    public func link(
        _ caller: Authenticated, provider name: String, idToken: String, nonce: String?, authorizationCode: String? = nil, from address: String
    ) async throws -> Identity {
        let provider = try provider(named: name)
        let identity = try await verify(idToken, nonce: nonce, for: provider)
        let email = identity.email.flatMap { if case .success(let valid) = EmailRules.normalize($0) { valid.address } else { nil } }
        let events = events
        let outcome = try await database.write { db -> Result<(Identity, EndedAccess?), IdentityError> in
            let now = UnixTime.now()
            if let owner = try IdentityStore.userID(provider: provider.name, subject: identity.subject, on: db) {
                guard owner == caller.userID, let linked = try IdentityStore.identity(of: owner, provider: provider.name, on: db) else {
                    return .failure(.identityInUse(otherAccount: true))
                }
                return .success((linked, nil))
            }
            guard try IdentityStore.identity(of: caller.userID, provider: provider.name, on: db) == nil else {
                return .failure(.identityInUse(otherAccount: false))
            }
            let linked = try IdentityStore.insert(provider: provider.name, subject: identity.subject, userID: caller.userID, email: email, now: now, on: db)
            let ended = try events.record(.signInMethodChanged(.identityLinked(provider: provider.name)), userID: caller.userID, address: address, now: now, on: db)
            return .success((linked, ended))
        }
        let (linked, ended) = try outcome.get()
        if let ended {
            mailQueued()
            await events.published(ended)
        }
        await keepAppleToken(authorizationCode, of: identity, provider: provider, userID: caller.userID)
        return linked
    }

    /// Apple's authorization code, exchanged for the client id the token's `aud` named and
    /// kept, so deleting the account can revoke it at Apple. Awaited, so the answer comes
    /// once the token is kept, but never failing the sign-in or link that carried it: a
    /// failure goes to the log (`AppleRefreshTokens.report`). Ignored for other providers
    /// and without Apple's server settings.
    private func keepAppleToken(_ code: String?, of identity: VerifiedIdentity, provider: IdentityProvider, userID: String) async {
        guard let code, let appleTokens, provider.name == IdentityProvider.appleName else { return }
        await appleTokens.storeAfterSignIn(forAccount: userID, clientID: identity.clientID, authorizationCode: code, subject: identity.subject)
    }

    /// Refused when nothing else would sign the account in: no password, no passkey, no
    /// other identity. Unlinking Apple queues the revocation of the account's Apple tokens
    /// in the same transaction (the app no longer holds the user's authorization at Apple).
    public func unlink(_ caller: Authenticated, provider: String, from address: String) async throws {
        let events = events
        let ended = try await database.write { db -> Result<EndedAccess, IdentityError> in
            guard try IdentityStore.identity(of: caller.userID, provider: provider, on: db) != nil else { return .failure(.notFound) }
            let ways = try IdentityStore.waysIn(of: caller.userID, on: db)
            guard ways.password || ways.passkeys > 0 || ways.identities > 1 else { return .failure(.lastSignInMethod) }
            try IdentityStore.delete(of: caller.userID, provider: provider, on: db)
            if provider == IdentityProvider.appleName {
                try AppleTokenStore.queueRevocations(userID: caller.userID, now: UnixTime.now(), on: db)
            }
            return .success(try events.record(
                .signInMethodChanged(.identityUnlinked(provider: provider)), userID: caller.userID, address: address, now: UnixTime.now(), on: db))
        }.get()
        mailQueued()
        await events.published(ended)
    }

    func provider(named name: String) throws(IdentityError) -> IdentityProvider {
        guard let provider = providers[name] else { throw .providerNotFound }
        return provider
    }

    /// The token's signature against the provider's keys (fetched again once when it
    /// names a `kid` they lack), then its claims (`IDTokenClaims.check`).
    func verify(_ token: String, nonce: String?, for provider: IdentityProvider) async throws(IdentityError) -> VerifiedIdentity {
        let payload = try await verifiedPayload(token, for: provider)
        switch IDTokenClaims.check(payload: payload, provider: provider, bodyNonce: nonce, now: UnixTime.now()) {
        case .success(let identity): return identity
        case .failure(let failure): throw .tokenInvalid(failure)
        }
    }

    /// The payload of a JWT signed by one of the provider's keys (fetched again once when
    /// it names a `kid` they lack); its claims are the caller's to check.
    func verifiedPayload(_ token: String, for provider: IdentityProvider) async throws(IdentityError) -> [UInt8] {
        do {
            return try JWT.verifiedPayload(token, keys: try await keys.keys(of: provider))
        } catch JWTError.unknownKey {
            guard let fresh = await keys.keysAfterUnknownKey(of: provider) else { throw .tokenInvalid(.signature) }
            do {
                return try JWT.verifiedPayload(token, keys: fresh)
            } catch JWTError.malformed {
                throw .tokenInvalid(.malformed)
            } catch {
                throw .tokenInvalid(.signature)
            }
        } catch JWTError.malformed {
            throw .tokenInvalid(.malformed)
        } catch let error as IdentityError {
            throw error
        } catch {
            throw .tokenInvalid(.signature)
        }
    }
}
