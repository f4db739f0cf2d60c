/// One write waiting for a writer (SQLite's or PostgreSQL's): its body, which the writer
/// runs inside a transaction of its choosing (a savepoint of a batch, or a transaction of
/// its own when PostgreSQL asks for a retry), and the caller's completion.
struct WriteJob: Sendable {
    /// Runs the body and keeps its result for `finish`; throws what the body threw. A
    /// PostgreSQL writer may run it more than once (each run's changes but the last rolled
    /// back), so the result kept is the last run's.
    let run: @Sendable (StoreConnection) throws -> Void
    /// Tells the caller, exactly once: nil once the transaction holding the last `run` is
    /// durable (the caller gets that run's result), else why not.
    let finish: @Sendable ((any Error)?) -> Void

    init<T: Sendable>(
        _ body: @escaping @Sendable (StoreConnection) throws -> T, completion: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        let box = ResultBox<T>()
        run = { connection in box.value = try body(connection) }
        finish = { error in
            if let error { completion(.failure(error)) } else { completion(.success(box.value!)) }
        }
    }
}

/// A job's result between its run and the commit.
/// `@unchecked Sendable`: written on the one writer thread that took the job, then read
/// once by whichever thread finishes it, after a lock hands the job over (SQLite's
/// `CommitFlusher`) or on that same thread.
private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
