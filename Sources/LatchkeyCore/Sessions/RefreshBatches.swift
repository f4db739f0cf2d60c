import AuthCrypto

/// Refreshes where the database is across the network (PostgreSQL), in batches
/// (`BatchingThreads`), so a refresh costs a share of two statements instead of a writer's
/// serializable transaction of its own:
/// 1. one read of every waiting refresh's session state;
/// 2. the verdict of each (`RefreshVerdict`); a forged token, or a retry within the grace,
///    is answered from that read alone;
/// 3. one `UPDATE` rotating every session whose token is current, committed by itself,
///    which rotates a session only if it is still at the generation read and not revoked:
///    a rotation through another instance, or a revocation, committed since the read makes
///    it skip that session.
/// Whatever is not answered so (a revocation to carry out, a session the `UPDATE` skipped, a
/// second refresh of one session in the batch, a failed statement, whose outcome may be
/// unknown) goes to the writer (`RefreshInWriter`), which reads and decides again in its
/// own transaction: a rotation committed meanwhile makes the token a retry within the grace.
final class RefreshBatches: Sendable {
    private struct Refresh: Sendable {
        let presented: RefreshToken
        let completion: @Sendable (Result<SessionService.Rotated, any Error>) -> Void
    }

    private let threads: BatchingThreads<Refresh>

    /// One thread (see `BatchingThreads`).
    init(database: Database, policy: AccountsPolicy, key: HMACKey, inWriter: RefreshInWriter, capacity: Int = 4096) {
        threads = BatchingThreads(named: "refresh-batch", threads: 1, capacity: capacity) { refreshes, _ in
            Self.process(refreshes, database: database, policy: policy, key: key, inWriter: inWriter)
        }
    }

    /// Refreshes per batch, for `/metrics`.
    var batchSizes: Histogram { threads.batchSizes }

    func rotate(_ presented: RefreshToken, completion: @escaping @Sendable (Result<SessionService.Rotated, any Error>) -> Void) {
        guard threads.submit(Refresh(presented: presented, completion: completion)) else {
            return completion(.failure(StoreError.busy))
        }
    }

    private static func process(_ refreshes: [Refresh], database: Database, policy: AccountsPolicy, key: HMACKey, inWriter: RefreshInWriter) {
        let now = UnixTime.now()
        let states: [String: RefreshState]
        do {
            states = try database.read { db in try SessionStore.refreshStates(ids: refreshes.map(\.presented.sessionID), on: db) }
        } catch {
            return refreshes.forEach { $0.completion(.failure(error)) }
        }
        var rotations: [(refresh: Refresh, state: RefreshState, generation: Int64)] = []
        var rotating = Set<String>()
        for refresh in refreshes {
            let sessionID = refresh.presented.sessionID
            switch RefreshVerdict(refresh.presented, state: states[sessionID], now: now, policy: policy, key: key) {
            case .invalid:
                refresh.completion(.failure(SessionError.invalidRefreshToken))
            case .current(let state):
                refresh.completion(.success(SessionService.Rotated(user: state.user, sessionID: sessionID, generation: state.generation, seed: state.seed)))
            case .rotate(let state, let generation) where rotating.insert(sessionID).inserted:
                rotations.append((refresh, state, generation))
            case .rotate, .revokeUnusable, .revokeReused:
                inWriter.rotate(refresh.presented, completion: refresh.completion)
            }
        }
        guard !rotations.isEmpty else { return }
        // Sorted, so two batches rotating the same sessions lock their rows in one order.
        rotations.sort { $0.refresh.presented.sessionID < $1.refresh.presented.sessionID }
        let rotated = try? database.commitEachStatement { db in
            try SessionStore.rotateAll(rotations.map { ($0.refresh.presented.sessionID, $0.generation) }, now: now, on: db)
        }
        for (refresh, state, generation) in rotations {
            let sessionID = refresh.presented.sessionID
            if rotated?.contains(sessionID) == true {
                refresh.completion(.success(SessionService.Rotated(user: state.user, sessionID: sessionID, generation: generation + 1, seed: state.seed)))
            } else {
                inWriter.rotate(refresh.presented, completion: refresh.completion)
            }
        }
    }
}
