import Threads

/// Refreshes where the database is across the network (PostgreSQL), in batches
/// (`BatchingThreads`), so a refresh costs a share of a statement instead of a writer's
/// serializable transaction of its own. Every token here is authentic already
/// (`RefreshToken`: its MAC was checked on the event loop), so:
/// 1. one `UPDATE` for the whole batch, committed by itself, rotates each session still
///    at its token's generation and usable (not revoked, idle or past its lifetime, its
///    user not disabled), as the verdict would, and answers those refreshes;
/// 2. what it leaves (a retry within the grace, a second refresh of one session in the
///    batch, a session it skipped, or all of them when the statement failed, whose outcome
///    may be unknown) has its session state read, all in one read, and its verdict
///    (`RefreshVerdict`) taken from that: a retry within the grace, or a token of no
///    session, is answered from the read alone;
/// 3. the rest (a revocation to carry out, a session still to rotate after a race) goes to
///    the writer (`RefreshInWriter`), which reads and decides again in its own transaction.
/// In steady use only step 1 runs: one round trip and one commit per batch.
final class RefreshBatches: Sendable {
    private struct Refresh: Sendable {
        let presented: RefreshToken
        let completion: @Sendable (Result<SessionService.Rotated, any Error>) -> Void
    }

    private struct Context: Sendable {
        let database: Database
        let policy: AccountsPolicy
        let inWriter: RefreshInWriter
    }

    private let threads: BatchingThreads<Refresh>
    private let sizes = BatchSizes()
    private let readSizes = BatchSizes()

    /// How long the thread waits for more refreshes when fewer are waiting than its batch
    /// before held (see `BatchingThreads`): each batch commits, and a commit's fsync costs
    /// PostgreSQL about the same for one session as for thirty, so a short wait under load
    /// makes batches larger; it adds at most that to a refresh, and nothing to one that
    /// comes alone.
    static let lingerMicroseconds: UInt32 = 300

    /// One thread (see `BatchingThreads`).
    init(database: Database, policy: AccountsPolicy, inWriter: RefreshInWriter, capacity: Int = 4096) {
        let context = Context(database: database, policy: policy, inWriter: inWriter)
        let sizes = sizes, readSizes = readSizes
        threads = BatchingThreads(
            named: "refresh-batch", threads: 1, capacity: capacity, lingerMicroseconds: Self.lingerMicroseconds,
            observeBatch: { sizes.observe($0) }
        ) { refreshes, _ in
            let unanswered = Self.rotateAll(refreshes, context)
            guard !unanswered.isEmpty else { return }
            readSizes.observe(unanswered.count)
            Self.answerFromRead(unanswered, context)
        }
    }

    /// Refreshes per batch, for `/metrics`.
    var batchSizes: Histogram { sizes.histogram }

    /// Refreshes per batch that needed their sessions read (step 2), for `/metrics`.
    var readBatchSizes: Histogram { readSizes.histogram }

    func rotate(_ presented: RefreshToken, completion: @escaping @Sendable (Result<SessionService.Rotated, any Error>) -> Void) {
        guard threads.submit(Refresh(presented: presented, completion: completion)) else {
            return completion(.failure(StoreError.busy))
        }
    }

    /// Step 1: rotates the sessions of the batch's first refresh of each session that are
    /// still at those tokens' generations and usable, in one statement committed by itself,
    /// and answers their refreshes; returns the others.
    private static func rotateAll(_ refreshes: [Refresh], _ context: Context) -> [Refresh] {
        var first: [Refresh] = []
        var others: [Refresh] = []
        var sessions = Set<String>()
        for refresh in refreshes {
            if sessions.insert(refresh.presented.sessionID).inserted { first.append(refresh) } else { others.append(refresh) }
        }
        // Sorted, so two batches rotating the same sessions lock their rows in one order.
        first.sort { $0.presented.sessionID < $1.presented.sessionID }
        let rotated = (try? context.database.commitEachStatement { db in
            try SessionStore.rotateAllUsable(first.map(\.presented), now: UnixTime.now(), policy: context.policy, on: db)
        }) ?? [:]
        for refresh in first {
            let (sessionID, generation) = (refresh.presented.sessionID, refresh.presented.generation)
            if let (user, methods) = rotated[sessionID] {
                refresh.completion(.success(SessionService.Rotated(
                    user: user, methods: methods, presented: refresh.presented, generation: generation + 1)))
            } else {
                others.append(refresh)
            }
        }
        return others
    }

    /// Steps 2 and 3.
    private static func answerFromRead(_ refreshes: [Refresh], _ context: Context) {
        let now = UnixTime.now()
        let states: [String: RefreshState]
        do {
            states = try context.database.read { db in try SessionStore.refreshStates(ids: refreshes.map(\.presented.sessionID), on: db) }
        } catch {
            return refreshes.forEach { $0.completion(.failure(error)) }
        }
        for refresh in refreshes {
            let sessionID = refresh.presented.sessionID
            switch RefreshVerdict(refresh.presented, state: states[sessionID], now: now, policy: context.policy) {
            case .invalid:
                refresh.completion(.failure(SessionError.invalidRefreshToken))
            case .current(let state):
                refresh.completion(.success(SessionService.Rotated(
                    user: state.user, methods: state.session.methods, presented: refresh.presented, generation: state.generation)))
            case .rotate, .revokeUnusable, .revokeReused:
                context.inWriter.rotate(refresh.presented, completion: refresh.completion)
            }
        }
    }
}
