import AuthCrypto

/// The SQL of `imported_hash_parameters` (migration 0011): a Firebase project's password
/// hash parameters, stored once and named by its users' imported hashes.
enum ImportedHashParametersStore {
    /// Nil when no set has that id, or the stored one is out of Firebase's bounds.
    static func parameters(_ id: Int64, on db: StoreConnection) throws -> FirebaseScryptParameters? {
        try db.queryOne(
            "SELECT signer_key, salt_separator, rounds, memory_cost FROM imported_hash_parameters WHERE id = ? AND algorithm = 'firebase-scrypt'", id
        ) { row in
            FirebaseScryptParameters(signerKey: row.blob(at: 0) ?? [], saltSeparator: row.blob(at: 1) ?? [], rounds: row.int(at: 2), memoryCost: row.int(at: 3))
        } ?? nil
    }

    /// The id of the set, stored now unless an earlier import of the same project did.
    static func id(of parameters: FirebaseScryptParameters, now: Int64, on db: StoreConnection) throws -> Int64 {
        try db.run(
            """
            INSERT INTO imported_hash_parameters (algorithm, signer_key, salt_separator, rounds, memory_cost, created_at)
            VALUES ('firebase-scrypt', ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
            """,
            parameters.signerKey, parameters.saltSeparator, parameters.rounds, parameters.memoryCost, now
        )
        let id = try db.queryOne(
            """
            SELECT id FROM imported_hash_parameters
            WHERE algorithm = 'firebase-scrypt' AND signer_key = ? AND salt_separator = ? AND rounds = ? AND memory_cost = ?
            """,
            parameters.signerKey, parameters.saltSeparator, parameters.rounds, parameters.memoryCost
        ) { $0.int64(at: 0) }
        guard let id else { throw StoreError.failed("the imported hash parameters were not stored") }
        return id
    }
}
