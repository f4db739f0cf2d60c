import AuthCrypto

/// Signup, login, password change, profile changes and account deletion.
public struct AccountService: Sendable {
    let database: Database
    let hashing: HashingPool
    let issuer: TokenIssuer
    let policy: AccountsPolicy
    let guesses: PasswordGuessThrottle
    let mail: MailComposer
    let mailQueued: @Sendable () -> Void
    let pictures: ProfilePictures
    let events: AccountEvents

    init(
        database: Database, hashing: HashingPool, issuer: TokenIssuer, policy: AccountsPolicy, mail: MailComposer,
        mailQueued: @escaping @Sendable () -> Void, pictures: ProfilePictures, events: AccountEvents
    ) {
        self.events = events
        self.pictures = pictures
        self.database = database
        self.hashing = hashing
        self.issuer = issuer
        self.policy = policy
        self.mail = mail
        self.mailQueued = mailQueued
        guesses = PasswordGuessThrottle(database: database, policy: policy)
    }

    var hasher: PasswordHasher { PasswordHasher(iterations: policy.passwordIterations) }

    /// Account, display-name claim, presence `online` and first session, in one
    /// transaction: all of them exist afterwards or none does.
    public func signup(_ form: SignupForm, userAgent: String?) async throws -> TokenPair {
        let (email, displayName) = try form.validated(reserved: policy.reservedDisplayNames)
        let nameKey = DisplayNameRules.key(displayName)
        try database.read { db in
            if try AccountStore.emailExists(email.key, on: db) { throw AccountError.emailExists }
            if try AccountStore.claimExists(nameKey, on: db) { throw AccountError.displayNameTaken(reserved: false) }
        }
        let hasher = hasher
        let password = form.password
        let passwordHash = try await hashing.run { hasher.hashNormalized(password) }
        let (user, refresh, sessionID) = try await database.write { db in
            // Checked again inside the write: two racing signups cannot both pass.
            if try AccountStore.emailExists(email.key, on: db) { throw AccountError.emailExists }
            if try AccountStore.claimExists(nameKey, on: db) { throw AccountError.displayNameTaken(reserved: false) }
            let now = UnixTime.now()
            let userID = RandomID.make()
            try AccountStore.insertUser(id: userID, email: email, passwordHash: passwordHash, displayName: displayName, now: now, on: db)
            try AccountStore.claim(nameKey, for: userID, now: now, on: db)
            try AccountStore.setPresence("online", for: userID, now: now, on: db)
            let (refresh, sessionID) = try Self.startSession(for: userID, by: .password, userAgent: userAgent, now: now, issuer: issuer, on: db)
            try AuditStore.append(.signup, user: userID, session: sessionID, now: now, on: db)
            return (try AccountStore.user(id: userID, on: db)!, refresh, sessionID)
        }
        let pair = try issuer.pair(for: user, sessionID: sessionID, methods: .password, refreshToken: refresh, now: UnixTime.now())
        return issuer.withDeviceToken(pair, userID: user.id, epoch: 0)
    }

    /// One answer for an unknown email and a wrong password, in about the same time: an
    /// unknown email is hashed against a dummy hash of the configured cost. `address` is
    /// the client's (see `PasswordGuessThrottle`); `deviceToken` the one an earlier login of
    /// this device was given (`DeviceToken`), if the app kept it.
    /// For an account with a live second factor the right password starts no session: the
    /// answer is the challenge (`SecondFactorService.answer`).
    public func login(
        email rawEmail: String, password: String, deviceToken: String? = nil, from address: String, userAgent: String?
    ) async throws -> LoginOutcome {
        let hasher = hasher
        guard case .success(let email) = EmailRules.normalize(rawEmail) else {
            _ = try await hashing.run { hasher.dummyVerify(password) }
            throw AccountError.invalidCredentials
        }
        let stored = try database.read { db in
            try AccountStore.credentials(emailKey: email.key, on: db).map {
                (user: $0.user, password: try StoredPassword.resolve($0.passwordHash, on: db), epoch: $0.passwordEpoch,
                 secondFactor: try SecondFactorStore.isLive($0.user.id, on: db))
            }
        }
        let device = deviceToken.flatMap { token in
            stored.flatMap { DeviceToken(verifying: token, userID: $0.user.id, epoch: $0.epoch, key: issuer.deviceKey) }
        }
        let attempt: PasswordGuessThrottle.Attempt
        do {
            attempt = try guesses.begin(accountKey: email.key, address: address, device: device)
        } catch {
            AuditLog(database: database).record(.throttled, address: address, detail: "password guesses for one account")
            throw error
        }
        let verdict: (matched: Bool, rehash: Bool)
        do {
            verdict = try await hashing.run { () -> (matched: Bool, rehash: Bool) in
                guard let stored else {
                    hasher.dummyVerify(password)
                    return (false, false)
                }
                return hasher.verifyNormalized(password, against: stored.password)
            }
        } catch {
            guesses.abandon(attempt)  // no verdict (a full hashing queue): no failure either
            throw error
        }
        if verdict.matched, stored?.secondFactor == true {
            // Not a failure, and not yet a sign-in: the address's count is cleared only by
            // the code that completes it, so wrong codes add up across challenges.
            guesses.abandon(attempt)
        } else {
            try await guesses.finish(attempt, succeeded: verdict.matched)
        }
        guard verdict.matched, let stored else {
            AuditLog(database: database).record(.loginFailed, user: stored?.user.id, address: address, detail: stored == nil ? "unknown email" : "wrong password")
            throw AccountError.invalidCredentials
        }
        if stored.user.disabled {
            AuditLog(database: database).record(.loginFailed, user: stored.user.id, address: address, detail: "account disabled")
            throw AccountError.userDisabled
        }
        // A hash below the configured count, made before normalisation or imported (Firebase's
        // scrypt) is re-made now.
        let upgradedHash: String? = verdict.rehash ? try await hashing.run { hasher.hashNormalized(password) } : nil
        let user = stored.user
        if stored.secondFactor {
            let challenge = try await database.write { db in
                let now = UnixTime.now()
                if let upgradedHash { try AccountStore.setPasswordHash(upgradedHash, for: user.id, now: now, on: db) }
                return try SecondFactorService.openChallenge(
                    for: user.id, accountKey: email.key, passwordEpoch: stored.epoch, device: device, now: now, on: db
                )
            }
            return .secondFactorRequired(challenge)
        }
        let (refresh, sessionID) = try await database.write { db in
            let now = UnixTime.now()
            if let upgradedHash { try AccountStore.setPasswordHash(upgradedHash, for: user.id, now: now, on: db) }
            try AccountStore.setPresence("online", for: user.id, now: now, on: db)
            let started = try Self.startSession(for: user.id, by: .password, userAgent: userAgent, now: now, issuer: issuer, on: db)
            try AuditStore.append(.login, user: user.id, address: address, session: started.1, now: now, on: db)
            return started
        }
        let pair = try issuer.pair(for: user, sessionID: sessionID, methods: .password, refreshToken: refresh, now: UnixTime.now())
        return .signedIn(issuer.withDeviceToken(pair, userID: user.id, epoch: stored.epoch, device: device))
    }

    /// A new password revokes every session and signs this device in afresh.
    public func changePassword(
        _ caller: Authenticated, current: String, new: String, from address: String, userAgent: String?
    ) async throws -> TokenPair {
        if let weak = PasswordRules.check(new, field: "newPassword") { throw AccountError.invalid(ValidationErrors([weak])) }
        try await verifyPassword(current, of: caller, from: address)
        let hasher = hasher
        let newHash = try await hashing.run { hasher.hashNormalized(new) }
        let (user, refresh, sessionID, epoch, ended) = try await database.write { [events] db in
            let now = UnixTime.now()
            guard let user = try AccountStore.user(id: caller.userID, on: db) else { throw AccessError.sessionRevoked }
            try AccountStore.setPasswordHash(newHash, for: user.id, now: now, on: db)
            let (refresh, sessionID) = try Self.startSession(for: user.id, by: .password, userAgent: userAgent, now: now, issuer: issuer, on: db)
            let ended = try events.record(.passwordChanged(newSession: sessionID), userID: user.id, address: address, now: now, on: db)
            return (user, refresh, sessionID, try AccountStore.passwordEpoch(userID: user.id, on: db), ended)
        }
        mailQueued()
        await events.published(ended)
        let pair = try issuer.pair(for: user, sessionID: sessionID, methods: .password, refreshToken: refresh, now: UnixTime.now())
        return issuer.withDeviceToken(pair, userID: user.id, epoch: epoch)
    }

    /// Account, claim, presence and sessions go in one statement (cascade). `password` is
    /// nil for an account without one (`confirmOwner`).
    public func deleteAccount(_ caller: Authenticated, password: String?, from address: String) async throws {
        try await confirmOwner(caller, password: password, from: address)
        let ended = try await database.write { [events] db in
            try AccountStore.deleteUser(caller.userID, on: db)
            return try events.record(.deleted(fromSession: caller.sessionID), userID: caller.userID, address: address, now: UnixTime.now(), on: db)
        }
        await events.published(ended)
        pictures.removeAll(of: caller.userID)  // once the account is gone for good
    }

    /// Renaming claims the new name and releases the old one in one transaction. A stored
    /// picture the new `photoURL` no longer names is deleted once that is committed.
    public func updateProfile(_ caller: Authenticated, _ change: ProfileChange) async throws -> User {
        try change.validate(reserved: policy.reservedDisplayNames)
        let events = events
        let (updated, previousPhotoURL, changed) = try await database.write { db in
            let now = UnixTime.now()
            guard let user = try AccountStore.user(id: caller.userID, on: db) else { throw AccessError.sessionRevoked }
            if let name = change.displayName {
                let key = DisplayNameRules.key(name)
                if key != user.displayName.map(DisplayNameRules.key) {
                    if try AccountStore.claimExists(key, on: db) { throw AccountError.displayNameTaken(reserved: false) }
                    try AccountStore.releaseClaim(of: user.id, on: db)
                    try AccountStore.claim(key, for: user.id, now: now, on: db)
                }
                try AccountStore.setDisplayName(name, for: user.id, now: now, on: db)
            }
            if case .set(let url) = change.photoURL {
                try AccountStore.setPhotoURL(url, for: user.id, now: now, on: db)
            }
            let changed = try events.record(.profileChanged, userID: user.id, now: now, on: db)
            return (try AccountStore.user(id: user.id, on: db)!, user.photoURL, changed)
        }
        await events.published(changed)
        if case .set(let url) = change.photoURL { pictures.photoURLChanged(of: updated.id, from: previousPhotoURL, to: url) }
        return updated
    }


    public func profile(id: String, reader: StoreReader) throws -> PublicProfile {
        guard RequestedIdentifier.canExist(id), let user = try reader.read({ db in try AccountStore.user(id: id, on: db) }) else { throw AccountError.userNotFound }
        return PublicProfile(user)
    }

    /// The owner's say-so before a change they cannot take back: the password when the
    /// account has one (a password sent for an account without one proves nothing and is
    /// not looked at); otherwise a recent sign-in of the caller's session (`RecentSignIn`).
    func confirmOwner(_ caller: Authenticated, password: String?, from address: String) async throws {
        let (hasPassword, signedInAt) = try database.read { db in
            (try !(AccountStore.passwordHash(userID: caller.userID, on: db) ?? "").isEmpty,
             try SessionStore.session(id: caller.sessionID, on: db)?.createdAt)
        }
        if hasPassword {
            guard let password else { throw AccountError.passwordRequired }
            try await verifyPassword(password, of: caller, from: address)
        } else {
            guard let signedInAt else { throw AccessError.sessionRevoked }
            guard RecentSignIn.isRecent(signedInAt: signedInAt, now: UnixTime.now()) else { throw AccountError.recentLoginRequired }
        }
    }

    /// The caller's password check, throttled like a login: a stolen access token buys
    /// no more guesses than an email address does.
    func verifyPassword(_ password: String, of caller: Authenticated, from address: String) async throws {
        let attempt = try guesses.begin(accountKey: AccountStore.emailKey(of: caller.user), address: address)
        let verified: Bool
        do {
            guard let stored = try database.read({ db in
                try AccountStore.passwordHash(userID: caller.userID, on: db).map { try StoredPassword.resolve($0, on: db) }
            }) else {
                throw AccessError.sessionRevoked
            }
            let hasher = hasher
            verified = try await hashing.run { hasher.verifyNormalized(password, against: stored).matched }
        } catch {
            guesses.abandon(attempt)  // no verdict (a full hashing queue): no failure either
            throw error
        }
        try await guesses.finish(attempt, succeeded: verified)
        guard verified else { throw AccountError.invalidCredentials }
    }

    /// A new session (generation 0) and its first refresh token.
    static func startSession(
        for userID: String, by methods: SignInMethods, userAgent: String?, now: Int64, issuer: TokenIssuer, on db: StoreConnection
    ) throws -> (refreshToken: String, sessionID: String) {
        let sessionID = RandomID.makeTimeOrdered(milliseconds: UnixTime.nowMilliseconds())
        try SessionStore.create(id: sessionID, userID: userID, userAgent: userAgent, methods: methods, now: now, on: db)
        return (issuer.refreshToken(sessionID: sessionID, generation: 0), sessionID)
    }
}
