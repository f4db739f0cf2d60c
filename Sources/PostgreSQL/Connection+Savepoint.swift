extension Connection {
    /// Runs `body` inside `SAVEPOINT name` within the open transaction: when it throws, only
    /// its own changes are rolled back (ROLLBACK TO SAVEPOINT) and the transaction can go on.
    /// For batching several jobs in one transaction where one job's failure must not undo
    /// the others. The error is rethrown; the caller decides whether the batch continues.
    ///
    /// `name` must be a plain identifier (letters, digits, `_`): it is spliced into the SQL.
    public func savepoint<T>(_ name: String, _ body: (Connection) throws -> T) throws -> T {
        precondition(isInTransaction, "savepoint() called outside a transaction")
        precondition(Self.isPlainIdentifier(name), "savepoint name must be a plain identifier, not \(name)")
        try execute("SAVEPOINT \(name)")
        do {
            let result = try body(self)
            try execute("RELEASE SAVEPOINT \(name)")
            return result
        } catch {
            // A lost connection fails these too; the transaction is gone then anyway.
            try? execute("ROLLBACK TO SAVEPOINT \(name)")
            try? execute("RELEASE SAVEPOINT \(name)")
            throw error
        }
    }

    /// ASCII letters, digits and `_`, not starting with a digit.
    static func isPlainIdentifier(_ name: String) -> Bool {
        guard let first = name.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
        return name.utf8.allSatisfy { byte in
            byte == UInt8(ascii: "_") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
    }
}
