import Threads

/// The bearer check's session read where a read is a network round trip (PostgreSQL),
/// in batches (`BatchingThreads`): all the checks waiting read their sessions in one query,
/// so under load a round trip and the server's work per statement are shared by many
/// requests, and no event loop waits. Every read still happens after its request arrived,
/// so a revocation committed before the request, through any instance, refuses it.
public final class SessionReadBatches: Sendable {
    public typealias Found = (session: Session, user: User)?

    private struct Check: Sendable {
        let sessionID: String
        let completion: @Sendable (Result<Found, any Error>) -> Void
    }

    private let threads: BatchingThreads<Check>
    private let sizes = BatchSizes()

    /// One thread (see `BatchingThreads`).
    init(database: Database, capacity: Int = 4096) {
        let sizes = sizes
        threads = BatchingThreads(named: "session-batch", threads: 1, capacity: capacity, observeBatch: { sizes.observe($0) }) { checks, _ in
            let found = Result {
                try database.read { db in try SessionStore.sessionsWithUsers(ids: checks.map(\.sessionID), on: db) }
            }
            for check in checks {
                check.completion(found.map { $0[check.sessionID] })
            }
        }
    }

    /// Bearer checks per batch read, for `/metrics`.
    var batchSizes: Histogram { sizes.histogram }

    /// Reads the session `sessionID` and its user in the next batch; `completion` runs on
    /// the batch's thread (nil: no such session). Too many waiting: busy (503) at once.
    func find(_ sessionID: String, completion: @escaping @Sendable (Result<Found, any Error>) -> Void) {
        guard threads.submit(Check(sessionID: sessionID, completion: completion)) else {
            return completion(.failure(StoreError.busy))
        }
    }
}
