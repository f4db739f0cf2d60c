import Glibc
internal import PostgreSQL

/// One PostgreSQL writer thread's connection and what it does with a batch: every job in
/// one SERIALIZABLE transaction, each inside a savepoint so a job that throws rolls back
/// alone, and one COMMIT for all. Used only by its writer thread.
///
/// SERIALIZABLE because several writers (here and in other instances) now run at once, and
/// the stores read then write (is the name free? then claim it) as they could under
/// SQLite's single writer; PostgreSQL makes such a transaction fail with a serialization
/// failure rather than commit a result no one-at-a-time order could give.
///
/// Such a failure, or a deadlock, is never a caller's answer while attempts are left: the
/// batch is rolled back and each of its jobs runs again in a transaction of its own, up to
/// `maxAttempts` runs in all, after a short jittered pause. A unique violation is treated
/// alike, job by job: under SQLite's single writer a store that checks before it inserts
/// never meets one, and its caller gets the check's answer (the name is taken); here the
/// check may have raced a writer elsewhere, and running the job again gives that same
/// answer. Only a violation that persists (an insert that checks nothing) is the caller's.
/// A job's own error is only passed on once the transaction that saw it has committed:
/// until then PostgreSQL does not vouch for what it read.
///
/// A lost connection is re-established (a few tries) before the next transaction. Jobs whose
/// transaction broke before COMMIT are run again; when the connection breaks during COMMIT
/// nobody can tell whether it committed, so those jobs fail rather than risk running twice.
struct PostgreSQLBatchCommitter {
    static let maxAttempts = 5
    private static let begin = "BEGIN ISOLATION LEVEL SERIALIZABLE"

    let connection: PostgreSQL.Connection
    let statistics: WriteStatistics

    /// How one transaction ended.
    private enum Outcome {
        /// The transaction committed (or cannot be retried); every job heard its answer but
        /// the `contested` ones, whose unique violation may be a race, rolled back to their
        /// savepoints.
        case finished(contested: [(job: WriteJob, error: any Error)])
        /// Rolled back before any answer: the jobs are to run again, after `error`.
        case retry(any Error)
    }

    func commit(_ batch: [WriteJob]) {
        switch runInTransaction(batch) {
        case .retry(let error):
            for job in batch { retryAlone(job, after: error) }
        case .finished(let contested):
            for (job, error) in contested { retryAlone(job, after: error) }
        }
    }

    /// Runs `job` in transactions of its own until one finishes it or the attempts run out
    /// (the first was its batch's); then the last error is its answer.
    private func retryAlone(_ job: WriteJob, after firstError: any Error) {
        var lastError = firstError
        for attempt in 2...Self.maxAttempts {
            pause(before: attempt)
            switch runInTransaction([job]) {
            case .finished(let contested):
                guard let again = contested.first else { return }
                lastError = again.error
            case .retry(let error):
                lastError = error
            }
        }
        job.finish(lastError)
    }

    /// 2, 4, 8, 16 ms plus as much again at random: contenders that failed together do not
    /// meet again at once, and five attempts cost at most about 60 ms of waiting.
    private func pause(before attempt: Int) {
        let base = 1_000 << (attempt - 1)
        usleep(UInt32(base + Int.random(in: 0...base)))
    }

    private func runInTransaction(_ jobs: [WriteJob]) -> Outcome {
        if let unreachable = reconnectIfBroken() {
            // No transaction can run: answering now (busy) beats retrying into a server that is gone.
            jobs.forEach { $0.finish(unreachable) }
            return .finished(contested: [])
        }
        let store = StoreConnection(.postgres(connection))
        var outcomes: [(job: WriteJob, error: (any Error)?)] = []
        do {
            try connection.execute(Self.begin)
            for job in jobs {
                try connection.execute("SAVEPOINT job")
                do {
                    try job.run(store)
                    // Fails when the job caught a statement's error and carried on: the
                    // transaction is aborted, and the job is treated as having thrown.
                    try connection.execute("RELEASE SAVEPOINT job")
                    outcomes.append((job, nil))
                } catch let error where !Self.endsTheTransaction(error) && !connection.isBroken {
                    try connection.execute("ROLLBACK TO SAVEPOINT job")
                    try connection.execute("RELEASE SAVEPOINT job")
                    outcomes.append((job, error))
                }
            }
        } catch {
            rollback()
            return .retry(error)
        }
        return commitTransaction(outcomes)
    }

    private func commitTransaction(_ ran: [(job: WriteJob, error: (any Error)?)]) -> Outcome {
        let contested = ran.compactMap { outcome -> (job: WriteJob, error: any Error)? in
            guard let error = outcome.error, Self.isUniqueViolation(error) else { return nil }
            return (outcome.job, error)
        }
        let outcomes = ran.filter { outcome in !(outcome.error.map(Self.isUniqueViolation) ?? false) }
        let started = ContinuousClock.now
        do {
            try connection.execute("COMMIT")
        } catch let error where Self.isConflict(error) {
            // The server rolled the transaction back at COMMIT: nothing of it happened.
            rollback()
            return .retry(error)
        } catch PostgreSQLError.connectionLost(let message) {
            let unknown = StoreError.failed("the connection to PostgreSQL broke during COMMIT (\(message)); the write may or may not be applied")
            ran.forEach { $0.job.finish($0.error ?? unknown) }
            return .finished(contested: [])
        } catch {
            rollback()
            ran.forEach { $0.job.finish($0.error ?? error) }
            return .finished(contested: [])
        }
        statistics.record(batchSize: ran.count, commitSeconds: (ContinuousClock.now - started) / .seconds(1))
        outcomes.forEach { $0.job.finish($0.error) }
        return .finished(contested: contested)
    }

    private static func isUniqueViolation(_ error: any Error) -> Bool {
        if case .uniqueViolation = error as? PostgreSQLError { true } else { false }
    }

    /// Errors after which the transaction cannot go on, only run again.
    private static func endsTheTransaction(_ error: any Error) -> Bool {
        guard let error = error as? PostgreSQLError else { return false }
        if case .connectionLost = error { return true }
        return isConflict(error)
    }

    /// What concurrent transactions do to each other, which running again resolves.
    private static func isConflict(_ error: PostgreSQLError) -> Bool {
        switch error {
        case .serializationFailure, .deadlock: true
        default: false
        }
    }

    private func rollback() {
        guard !connection.isBroken, connection.isInTransaction else { return }
        try? connection.execute("ROLLBACK")
    }

    /// Nil when the connection works (again); else why it could not be re-established,
    /// after 3 tries 100 and 200 ms apart.
    private func reconnectIfBroken() -> (any Error)? {
        guard connection.isBroken else { return nil }
        var lastError: any Error = PostgreSQLError.connectionLost(message: "the connection is closed")
        for attempt in 0..<3 {
            if attempt > 0 { usleep(UInt32(100_000 * attempt)) }
            do {
                try connection.reset()
                return nil
            } catch {
                lastError = error
            }
        }
        return lastError
    }
}
