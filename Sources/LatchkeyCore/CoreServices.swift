import AuthCrypto
import Threads

/// The domain, assembled once at start-up from what the executable opened (database,
/// keys) and configured: everything the HTTP layer calls, with nothing of the storage or
/// the cryptography beneath in sight, so another store can take SQLite's place without
/// touching a handler.
///
/// A class: every handler's context holds it, and a copy of it as a struct (its services
/// and theirs, each reference retained and later released) cost 76 retains and as many
/// releases, about twice a refresh.
public final class CoreServices: Sendable {
    public let accounts: AccountService
    public let secondFactor: SecondFactorService
    public let sessions: SessionService
    public let passwordReset: PasswordResetService
    public let emailVerification: EmailVerificationService
    public let passkeys: PasskeyService
    public let identities: IdentityService
    /// Apple's server-to-server notifications (`POST /v1/auth/idp/apple/notifications`).
    public let appleNotifications: AppleNotifications
    public let verifier: AccessTokenVerifier
    /// Where reads cross the network (PostgreSQL), the bearer checks' session reads in
    /// batches; nil on SQLite, whose checks read inline.
    public let sessionReadBatches: SessionReadBatches?
    public let pictures: ProfilePictures
    public let presence: PresenceService
    public let policy: AccountsPolicy
    public let audit: AuditLog
    /// What account events ended, heard on this instance (`AccountEvents`).
    public let accountEvents: AccountEventBus
    /// Sign in with Apple's server side (Apple's refresh tokens, revoked on deletion); nil
    /// unless `appleTeamID`, `appleKeyID` and `appleKeyFile` are set.
    public let appleRefreshTokens: AppleRefreshTokens?
    private let database: Database
    private let hashing: HashingPool

    /// `hashingQueueCapacity`: hashes allowed to wait for a thread before logins get 503.
    /// `mailQueued` is called after a transaction queued mail (wake the outbox sender).
    /// Profile pictures live under `picturesDirectory` and are named under `publicURL`.
    /// `sessionCacheCapacity`: active sessions this instance keeps in memory (`SessionCache`).
    /// `relyingParty`: the WebAuthn party passkeys are made for; nil, the public URL's.
    /// `identityProviders`: the sign-in providers whose ID tokens are accepted, their keys
    /// fetched through `providerDocuments` (outbound HTTPS).
    public init(
        database: Database, keys: CurrentKeyring, refreshKey: RefreshTokenKey, policy: AccountsPolicy, mail: MailComposer,
        mailQueued: @escaping @Sendable () -> Void, hashingThreads: Int, hashingQueueCapacity: Int = 64,
        picturesDirectory: String, publicURL: String, sessionCacheCapacity: Int = SessionCache.defaultCapacity,
        relyingParty: RelyingParty? = nil, appleRefreshTokens: AppleRefreshTokens? = nil, identityProviders: [IdentityProvider] = [],
        providerDocuments: any ProviderDocumentFetcher = NoProviderDocuments()
    ) throws {
        let issuer = TokenIssuer(keys: keys, refreshKey: refreshKey, seeds: try RefreshSeeds.load(from: database), policy: policy)
        let hashing = HashingPool(threads: hashingThreads, capacity: hashingQueueCapacity)
        self.database = database
        self.hashing = hashing
        self.policy = policy
        self.appleRefreshTokens = appleRefreshTokens
        audit = AuditLog(database: database)
        presence = PresenceService(database: database, policy: policy, bus: database.presenceBusBetweenInstances ?? InProcessPresenceBus())
        accountEvents = AccountEventBus()
        let sessionCache = SessionCache(capacity: sessionCacheCapacity)
        accountEvents.subscribe { [streams = presence.streams] ended in
            sessionCache.drop(userID: ended.userID)
            await streams.accountEventEnded(ended)
        }
        accountEvents.watchFeed(lost: sessionCache.suspend, restored: sessionCache.resume)
        let events = AccountEvents(bus: accountEvents, policy: policy, mail: mail)
        pictures = ProfilePictures(
            database: database, root: picturesDirectory, publicURL: publicURL, throttlesUploads: policy.rateLimitsEnabled, events: events
        )
        accounts = AccountService(
            database: database, hashing: hashing, issuer: issuer, policy: policy, mail: mail, mailQueued: mailQueued, pictures: pictures,
            events: events
        )
        secondFactor = SecondFactorService(accounts: accounts)
        passwordReset = PasswordResetService(
            database: database, hashing: hashing, policy: policy, mail: mail, mailQueued: mailQueued, events: events
        )
        emailVerification = EmailVerificationService(database: database, mail: mail, mailQueued: mailQueued, events: events)
        sessions = SessionService(database: database, issuer: issuer, policy: policy, events: events)
        passkeys = PasskeyService(
            database: database, issuer: issuer,
            party: relyingParty ?? RelyingParty.serving(publicURL: publicURL, name: "Latchkey") ?? RelyingParty(id: "localhost", name: "Latchkey", origins: []),
            events: events, accounts: accounts, mailQueued: mailQueued, challenges: LoginChallenges(refreshKey: issuer.refreshKey)
        )
        identities = IdentityService(
            database: database, issuer: issuer, events: events, mailQueued: mailQueued, providers: identityProviders, fetcher: providerDocuments,
            appleTokens: appleRefreshTokens
        )
        appleNotifications = AppleNotifications(identities: identities, pictures: pictures)
        verifier = AccessTokenVerifier(keys: keys, policy: policy, sessions: sessionCache)
        sessionReadBatches = database.networkReaderConnections.map { _ in SessionReadBatches(database: database) }
    }

    /// What `/metrics` shows of the domain beneath the HTTP layer.
    public struct Gauges: Sendable {
        public let hashingQueueDepth: Int
        public let hashingRejections: Int
        public let presenceStreams: Int
        public let outboxBacklog: Int
        public let writeBatchSizes: Histogram
        public let commitSeconds: Histogram
        /// Requests per batch statement on PostgreSQL, by what they are (`bearer_check`,
        /// `refresh`, and `refresh_read` for refreshes whose sessions had to be read first);
        /// empty on SQLite, which has no batches.
        public let batchSizes: [(kind: String, sizes: Histogram)]
    }

    /// Read on a reader of the caller's (the outbox backlog is a count of unsent rows).
    public func gauges(reader: StoreReader) throws -> Gauges {
        let writes = database.writeStatistics
        return Gauges(
            hashingQueueDepth: hashing.queueDepth, hashingRejections: hashing.rejections, presenceStreams: presence.streams.openStreams,
            outboxBacklog: try reader.read { try OutboxStore.backlog(on: $0) },
            writeBatchSizes: writes.batchSizes, commitSeconds: writes.commitSeconds,
            batchSizes: [
                sessionReadBatches.map { ("bearer_check", $0.batchSizes) }, sessions.refreshBatchSizes.map { ("refresh", $0) },
                sessions.refreshReadBatchSizes.map { ("refresh_read", $0) },
            ].compactMap { $0 }
        )
    }

    /// Starts hearing the account events of the other processes on the database (an admin
    /// command, another instance); returns what stops it. For the server, not the commands.
    public func hearAccountEvents() throws -> @Sendable () -> Void {
        try database.hearAccountEvents(on: accountEvents)
    }

    /// A reader for one thread to keep (an event loop).
    public func makeReader() throws -> StoreReader {
        try database.makeReader()
    }

    /// Where a read waits on the network (PostgreSQL), the threads that run the API's
    /// otherwise-inline reads instead of the event loops: as many as the database has
    /// reader connections, so none waits for one, and `queueCapacity` requests waiting
    /// before the next is answered 503. Nil on SQLite, whose reads stay on the loops.
    public func makeStoreReadPool(queueCapacity: Int = 256) -> BoundedThreadPool? {
        guard let readers = database.networkReaderConnections else { return nil }
        return BoundedThreadPool(named: "store-read", threads: readers, capacity: queueCapacity)
    }
}
