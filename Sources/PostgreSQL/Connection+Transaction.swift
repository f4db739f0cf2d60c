import CPostgreSQL

extension Connection {
    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it (or the
    /// COMMIT) throws, and the error is rethrown unchanged. `body` gets this connection, so
    /// the closure reads the same whether the caller holds the connection or a pool does.
    ///
    /// A failed statement aborts a PostgreSQL transaction: everything after it fails with
    /// 25P02 and COMMIT quietly turns into ROLLBACK. So a body that catches a statement's
    /// error and returns normally does not commit: this throws
    /// `.other(sqlstate: "25P02", ...)` after rolling back. Use `savepoint` to let one part
    /// fail and keep the rest.
    ///
    /// `.serializable` transactions can fail with `.serializationFailure` (and any kind with
    /// `.deadlock`); the whole transaction is then to be run again by the caller.
    public func transaction<T>(_ kind: TransactionKind = .readCommitted, _ body: (Connection) throws -> T) throws -> T {
        // No nested BEGIN in PostgreSQL either (it warns and goes on in the same
        // transaction): two layers would each believe they own the commit, a bug in the
        // caller's structure.
        precondition(!isInTransaction, "transaction() called inside an open transaction")
        try execute(kind.beginSQL)
        do {
            let result = try body(self)
            guard !isInFailedTransaction else {
                throw PostgreSQLError.other(
                    sqlstate: "25P02",
                    message: "a statement in the transaction failed and its error was caught; the transaction was rolled back"
                )
            }
            try execute("COMMIT")
            return result
        } catch {
            rollback()
            throw error
        }
    }

    /// Rolls back when a transaction is still open. Some failures end it by themselves (a
    /// failed COMMIT, a lost connection); a failed ROLLBACK leaves nothing more to do here:
    /// the error being rethrown is the one the caller needs.
    private func rollback() {
        guard !isBroken, isInTransaction else { return }
        try? execute("ROLLBACK")
    }
}
