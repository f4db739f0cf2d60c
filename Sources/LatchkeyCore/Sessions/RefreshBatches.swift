import AuthCrypto

/// Refreshes where the database is across the network (PostgreSQL), in batches
/// (`BatchingThreads`), so a refresh costs a share of a statement or two instead of a
/// writer's serializable transaction of its own:
/// 1. each token whose MAC holds under its session's derived seed (`RefreshSeeds`: every
///    session made since migration 0013) is rotated by one `UPDATE` for the whole batch,
///    committed by itself, which rotates a session only if it is still at the token's
///    generation and usable (not revoked, idle or past its lifetime, its user not disabled);
///    such a token is authentic, so rotating it is what the verdict would decide;
/// 2. every other refresh (a session from before with a random seed, a forged token, a
///    retry within the grace, a session that `UPDATE` skipped) has its session state read,
///    all in one read, and its verdict (`RefreshVerdict`) taken from that: a forged token,
///    or a retry within the grace, is answered from the read alone;
/// 3. step 1's `UPDATE` rotates the sessions of step 2 whose tokens are current, at the
///    generation read.
/// Whatever is not answered so (a revocation to carry out, a session the `UPDATE` skipped, a
/// second refresh of one session in the batch, a failed statement, whose outcome may be
/// unknown) goes to the writer (`RefreshInWriter`), which reads and decides again in its
/// own transaction: a rotation committed meanwhile makes the token a retry within the grace.
/// In steady use only step 1 runs: one round trip and one commit per batch.
final class RefreshBatches: Sendable {
    private struct Refresh: Sendable {
        let presented: RefreshToken
        let completion: @Sendable (Result<SessionService.Rotated, any Error>) -> Void
    }

    private struct Context: Sendable {
        let database: Database
        let policy: AccountsPolicy
        let key: HMACKey
        let seeds: RefreshSeeds
        let inWriter: RefreshInWriter
    }

    private let threads: BatchingThreads<Refresh>
    private let readSizes = BatchSizes()

    /// How long the thread waits for more refreshes when fewer are waiting than its batch
    /// before held (see `BatchingThreads`): each batch commits, and a commit's fsync costs
    /// PostgreSQL about the same for one session as for thirty. With 64 clients refreshing
    /// through two instances on 2 cores, 300 µs made batches of 17 instead of 10 and cut
    /// PostgreSQL's CPU per refresh by a third; it adds at most that to a refresh, and
    /// nothing to one that comes alone.
    static let lingerMicroseconds: UInt32 = 300

    /// One thread (see `BatchingThreads`).
    init(database: Database, policy: AccountsPolicy, key: HMACKey, seeds: RefreshSeeds, inWriter: RefreshInWriter, capacity: Int = 4096) {
        let context = Context(database: database, policy: policy, key: key, seeds: seeds, inWriter: inWriter)
        let readSizes = readSizes
        threads = BatchingThreads(
            named: "refresh-batch", threads: 1, capacity: capacity, lingerMicroseconds: Self.lingerMicroseconds
        ) { refreshes, _ in
            let unanswered = Self.rotateDirectly(refreshes, context)
            guard !unanswered.isEmpty else { return }
            readSizes.observe(unanswered.count)
            Self.rotateAfterReading(unanswered, context)
        }
    }

    /// Refreshes per batch, for `/metrics`.
    var batchSizes: Histogram { threads.batchSizes }

    /// Refreshes per batch that needed their sessions read (step 2), for `/metrics`.
    var readBatchSizes: Histogram { readSizes.histogram }

    func rotate(_ presented: RefreshToken, completion: @escaping @Sendable (Result<SessionService.Rotated, any Error>) -> Void) {
        guard threads.submit(Refresh(presented: presented, completion: completion)) else {
            return completion(.failure(StoreError.busy))
        }
    }

    /// A refresh whose session is to be rotated from `generation`, and the session's seed.
    private typealias Rotation = (refresh: Refresh, generation: Int64, seed: [UInt8])

    /// Step 1: answers the refreshes whose tokens hold under derived seeds and whose sessions
    /// it rotated; returns the others.
    private static func rotateDirectly(_ refreshes: [Refresh], _ context: Context) -> [Refresh] {
        var direct: [Rotation] = []
        var others: [Refresh] = []
        var sessions = Set<String>()
        for refresh in refreshes {
            let sessionID = refresh.presented.sessionID
            if case .mac(let generation, let code) = refresh.presented.proof, sessions.insert(sessionID).inserted {
                let seed = context.seeds.seed(for: sessionID)
                if ConstantTime.equals(code, RefreshToken.code(sessionID: sessionID, generation: generation, seed: seed, key: context.key)) {
                    direct.append((refresh, generation, seed))
                    continue
                }
            }
            others.append(refresh)
        }
        return others + rotateAll(direct, now: UnixTime.now(), context)
    }

    /// Steps 2 and 3.
    private static func rotateAfterReading(_ refreshes: [Refresh], _ context: Context) {
        let now = UnixTime.now()
        let states: [String: RefreshState]
        do {
            states = try context.database.read { db in try SessionStore.refreshStates(ids: refreshes.map(\.presented.sessionID), on: db) }
        } catch {
            return refreshes.forEach { $0.completion(.failure(error)) }
        }
        var rotations: [Rotation] = []
        var rotating = Set<String>()
        for refresh in refreshes {
            let sessionID = refresh.presented.sessionID
            switch RefreshVerdict(refresh.presented, state: states[sessionID], now: now, policy: context.policy, key: context.key) {
            case .invalid:
                refresh.completion(.failure(SessionError.invalidRefreshToken))
            case .current(let state):
                refresh.completion(.success(SessionService.Rotated(user: state.user, sessionID: sessionID, generation: state.generation, seed: state.seed)))
            case .rotate(let state, let generation) where rotating.insert(sessionID).inserted:
                rotations.append((refresh, generation, state.seed))
            case .rotate, .revokeUnusable, .revokeReused:
                context.inWriter.rotate(refresh.presented, completion: refresh.completion)
            }
        }
        for skipped in rotateAll(rotations, now: now, context) {
            context.inWriter.rotate(skipped.presented, completion: skipped.completion)
        }
    }

    /// Rotates the sessions of `rotations` that are still at those generations and usable,
    /// in one statement committed by itself, and answers their refreshes; returns the
    /// refreshes whose sessions it skipped, or all of them when the statement failed (its
    /// outcome may be unknown, so the caller reads again).
    private static func rotateAll(_ rotations: [Rotation], now: Int64, _ context: Context) -> [Refresh] {
        guard !rotations.isEmpty else { return [] }
        // Sorted, so two batches rotating the same sessions lock their rows in one order.
        let sorted = rotations.sorted { $0.refresh.presented.sessionID < $1.refresh.presented.sessionID }
        let users = (try? context.database.commitEachStatement { db in
            try SessionStore.rotateAllUsable(sorted.map { ($0.refresh.presented.sessionID, $0.generation) }, now: now, policy: context.policy, on: db)
        }) ?? [:]
        var skipped: [Refresh] = []
        for (refresh, generation, seed) in sorted {
            let sessionID = refresh.presented.sessionID
            if let user = users[sessionID] {
                refresh.completion(.success(SessionService.Rotated(user: user, sessionID: sessionID, generation: generation + 1, seed: seed)))
            } else {
                skipped.append(refresh)
            }
        }
        return skipped
    }
}
