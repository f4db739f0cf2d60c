import ArgumentParser
import AuthCrypto
import Dispatch
import Glibc
import HTTPServer
import LatchkeyAPI
import LatchkeyCore
import Logging

/// `latchkey serve`: open the data directory, migrate, listen, and stop cleanly on
/// SIGTERM or SIGINT.
struct ServeCommand: SettingsCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Listen and serve (the default command; 127.0.0.1:8080, data in ./data)."
    )

    func run(settings: Settings, logger: Logger) throws {
        // Blocked before any thread starts, so every thread inherits the mask and only
        // the sigwait below ever sees these signals.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGTERM)
        sigaddset(&signals, SIGINT)
        pthread_sigmask(SIG_BLOCK, &signals, nil)

        raiseOpenFileLimit()
        try DataDirectory.prepare(settings.dataDir)
        let database = try settings.openDatabase()
        // A start that fails from here on closes the database before the exit: over
        // PostgreSQL its threads may be inside libpq, and the exit's handlers would tear
        // OpenSSL down under them (a crash instead of the one-line error).
        var listening = false
        defer { if !listening { try? database.close() } }
        let keys = try ServeKeyring.make(settings, logger: logger)
        for warning in settings.unusuallyShortDurations { logger.warning("\(warning)") }
        if settings.passwordIterations < 600_000 {
            logger.warning("passwordIterations is \(settings.passwordIterations), below the recommended 600000")
        }
        // Bound before the service is built: with port 0 the issuer (the public URL)
        // depends on the port the kernel picks.
        let listener = try Listener(host: settings.host, port: settings.port)
        if let warning = settings.unroutablePublicURLWarning(boundPort: listener.port) { logger.warning("\(warning)") }
        let outboxKey = try OutboxKey.loadOrCreate(inDirectory: settings.dataDir)
        let outbox = OutboxSender(
            database: database,
            transport: try MailTransportChoice.make(settings, publicURL: settings.resolvedPublicURL(boundPort: listener.port), logger: logger),
            key: outboxKey
        )
        let appleTokens = try settings.appleTokenEndpoint()
        let appleRevocations = appleTokens.map { endpoint in
            AppleRevocationSender(database: database, endpoint: endpoint, key: outboxKey, report: { line in logger.warning("\(line)") })
        }
        let core = try CoreServices(
            database: database, keys: keys, refreshKey: try RefreshTokenKey.loadOrCreate(inDirectory: settings.dataDir),
            policy: settings.accountsPolicy(boundPort: listener.port),
            mail: MailComposer(
                productName: settings.productName, publicURL: settings.resolvedPublicURL(boundPort: listener.port),
                templates: .load(overridesIn: settings.dataDir + "/templates"), outboxKey: outboxKey
            ),
            mailQueued: outbox.notify,
            hashingThreads: settings.eventLoops,
            picturesDirectory: settings.dataDir + "/uploads/profile_pictures",
            publicURL: settings.resolvedPublicURL(boundPort: listener.port),
            relyingParty: settings.relyingParty(boundPort: listener.port),
            appleRefreshTokens: appleTokens.map { endpoint in
                AppleRefreshTokens(database: database, endpoint: endpoint, key: outboxKey, report: { line in logger.warning("\(line)") })
            },
            identityProviders: settings.identityProviders,
            providerDocuments: try ProviderHTTPS(caFile: settings.outboundCAFile)
        )
        let service = try LatchkeyService(core: core, options: try settings.serviceOptions(boundPort: listener.port), logger: logger)
        // Before listening: an admin command's event right after start is heard.
        let stopHearingAccountEvents = try core.hearAccountEvents()

        let server = HTTPServer(
            configuration: ServerConfiguration(
                host: settings.host, port: settings.port, eventLoops: settings.eventLoops,
                maxConnections: settings.maxConnections, maxConnectionsPerAddress: settings.maxConnectionsPerAddress,
                uncappedAddresses: Set(settings.trustedProxies),
                headerTimeout: .seconds(settings.headerTimeout), bodyTimeout: .seconds(settings.bodyTimeout),
                bodyMinRate: settings.bodyMinRate,
                idleTimeout: .seconds(settings.idleTimeout), shutdownGracePeriod: .seconds(settings.shutdownGracePeriod),
                cors: CORSPolicy(origins: settings.corsOrigins), requestObserver: service.requestObserver
            ),
            router: service.makeRouter(), logger: logger, errorResponder: service.errorResponse,
            problemResponder: service.problemResponse
        )
        service.serverGauges.attach(openConnections: { server.openConnections }, mailDeliveryFailures: { outbox.deliveryFailures })
        try server.start(on: listener)
        listening = true
        let retention = Retention(database: database, policy: core.policy, recordDays: settings.auditRetentionDays)
        Task.detached {
            // Bounded by the process: a prune every 6 hours until exit.
            while !Task.isCancelled {
                do {
                    let pruned = try await retention.prune()
                    if pruned.total > 0 {
                        logger.info("pruned old rows", metadata: [
                            "auditEntries": "\(pruned.auditEntries)", "mailEnvelopes": "\(pruned.mailEnvelopes)",
                            "sessions": "\(pruned.sessions)", "mailedLinks": "\(pruned.mailedLinks)",
                        ])
                    }
                } catch {
                    logger.warning("pruning old rows failed, next try in 6 hours: \(error)")
                }
                try? await Task.sleep(for: .seconds(6 * 3600))
            }
        }
        let shownHost = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
        logger.info("listening on http://\(shownHost):\(server.port)", metadata: [
            "publicURL": "\(settings.resolvedPublicURL(boundPort: server.port))", "data": "\(settings.dataDir)",
            "database": "\(settings.database.redacted)",
        ])
        // Last of the start: from here on only what serving runs stays mapped.
        StartupPages.release()

        var received: Int32 = 0
        sigwait(&signals, &received)
        logger.info("received \(received == SIGTERM ? "SIGTERM" : "SIGINT"), finishing in-flight requests")
        // Presence streams end first and their users' offline is committed, so watchers
        // elsewhere (and the next start) never see a user online whom nothing holds.
        let streamsStopped = DispatchSemaphore(value: 0)
        Task.detached {
            await core.presence.streams.stopAll()
            streamsStopped.signal()
        }
        streamsStopped.wait()
        stopHearingAccountEvents()
        server.shutdown()
        outbox.stop()
        appleRevocations?.stop()
        do {
            try database.close()
        } catch {
            logger.warning("closing the database at shutdown failed: \(error)")
        }
        logger.info("stopped")
        ProcessExit.now(0)
    }

    /// Each connection is a descriptor: take the hard limit, as the connection cap
    /// (not the default soft limit of 1024) should decide how many clients fit.
    private func raiseOpenFileLimit() {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
    }
}
