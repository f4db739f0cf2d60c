extension Connection {
    /// Runs `body` in a transaction: COMMIT when it returns, ROLLBACK when it (or the COMMIT)
    /// throws, and the error is rethrown unchanged.
    ///
    /// Keep the body short and free of slow work (hashing, network): an immediate transaction
    /// holds the database's only write lock until it ends.
    public func transaction<T>(_ kind: TransactionKind = .immediate, _ body: () throws -> T) throws -> T {
        // SQLite has no nested BEGIN; a transaction inside a transaction means two layers
        // each believe they own the commit, which is a bug in the caller's structure.
        precondition(!isInTransaction, "transaction() called inside an open transaction")
        try execute(kind.beginSQL)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            rollback()
            throw error
        }
    }

    /// Some errors (a full disk, an interrupt) end the transaction by themselves, so roll back
    /// only if one is still open. A failed ROLLBACK leaves nothing more to do here: the error
    /// being rethrown is the one the caller needs.
    private func rollback() {
        guard isInTransaction else { return }
        try? execute("ROLLBACK")
    }
}
