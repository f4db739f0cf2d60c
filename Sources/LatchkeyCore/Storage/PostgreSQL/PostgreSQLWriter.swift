internal import PostgreSQL
import Synchronization
import Threads

/// PostgreSQL's writers: several threads, each with a connection and a queue (a lane) of
/// its own, each committing the jobs waiting in its lane together (see
/// `PostgreSQLBatchCommitter`: SERIALIZABLE, a savepoint per job, retries).
///
/// Dedicated threads, as for SQLite's writer: a libpq call blocks its thread for a network
/// round trip, which on Swift's cooperative pool would stall every other task.
///
/// Why lanes rather than one shared queue: SQLite's single writer commits in the order jobs
/// were queued, and a caller that queues without waiting (a user's presence going online,
/// then offline) relies on that. Jobs given the same `orderingKey` always take the same
/// lane, whose thread commits them in order; other jobs are spread over the lanes in turn.
final class PostgreSQLWriter: Sendable {
    private let lanes: [WriteQueue<WriteJob>]
    private let nextLane = Atomic<Int>(0)
    let statistics = WriteStatistics()

    /// One lane per connection; the writer owns them from now on.
    init(connections: [PostgreSQL.Connection]) {
        precondition(!connections.isEmpty, "a PostgreSQL writer needs at least one connection")
        lanes = connections.map { _ in WriteQueue<WriteJob>() }
        for (lane, connection) in zip(lanes, connections) {
            let statistics = statistics
            DedicatedThread.start(named: "db-writer") {
                let committer = PostgreSQLBatchCommitter(connection: connection, statistics: statistics)
                lane.serve { batch in committer.commit(batch) }
                connection.close()
            }
        }
    }

    /// Queues `job` on its lane; its `finish` runs on that lane's thread, exactly once.
    func submit(_ job: WriteJob, orderingKey: String?) {
        let turn = orderingKey.map { $0.hashValue } ?? nextLane.wrappingAdd(1, ordering: .relaxed).oldValue
        lanes[Int(UInt(bitPattern: turn) % UInt(lanes.count))].submit(job)
    }

    /// Lets the queued jobs finish, then ends every writer thread.
    func stop() {
        for lane in lanes { lane.requestStop() }
        for lane in lanes { lane.waitUntilStopped() }
    }
}
