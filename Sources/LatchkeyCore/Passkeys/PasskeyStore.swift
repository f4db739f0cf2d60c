import AuthCrypto

/// The SQL of passkeys and their accounts' user handles (migrations/0020).
enum PasskeyStore {
    /// What a sign-in needs of a stored credential.
    struct StoredCredential {
        let userID: String
        let publicKey: [UInt8]
        let signCount: Int64
    }

    static func passkeys(of userID: String, on db: StoreConnection) throws -> [Passkey] {
        try db.query(
            "SELECT credential_id, name, created_at, last_used_at, backed_up FROM passkeys WHERE user_id = ? ORDER BY created_at, credential_id",
            userID, row: passkey
        )
    }

    static func passkey(_ credentialID: [UInt8], of userID: String, on db: StoreConnection) throws -> Passkey? {
        try db.queryOne(
            "SELECT credential_id, name, created_at, last_used_at, backed_up FROM passkeys WHERE credential_id = ? AND user_id = ?",
            credentialID, userID, row: passkey
        )
    }

    private static func passkey(_ row: StoreRow) -> Passkey {
        Passkey(
            credentialID: row.blob(at: 0) ?? [], name: row.text(at: 1) ?? "", createdAt: row.int64(at: 2),
            lastUsedAt: row.isNull(at: 3) ? nil : row.int64(at: 3), backedUp: row.bool(at: 4)
        )
    }

    static func credentialIDs(of userID: String, on db: StoreConnection) throws -> [[UInt8]] {
        try db.query("SELECT credential_id FROM passkeys WHERE user_id = ? ORDER BY created_at, credential_id", userID) { $0.blob(at: 0) ?? [] }
    }

    static func count(of userID: String, on db: StoreConnection) throws -> Int {
        try db.queryOne("SELECT count(*) FROM passkeys WHERE user_id = ?", userID) { $0.int(at: 0) } ?? 0
    }

    static func exists(_ credentialID: [UInt8], on db: StoreConnection) throws -> Bool {
        try db.queryOne("SELECT 1 FROM passkeys WHERE credential_id = ?", credentialID) { _ in true } ?? false
    }

    static func insert(
        _ credential: WebAuthnCeremony.NewCredential, userID: String, name: String, now: Int64, on db: StoreConnection
    ) throws {
        try db.run(
            """
            INSERT INTO passkeys (credential_id, user_id, public_key, algorithm, sign_count, name, backed_up, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """,
            credential.id, userID, credential.publicKey, credential.algorithm.rawValue, Int64(credential.signCount), name,
            credential.backedUp, now
        )
    }

    /// What a sign-in checks before its write (`KnownCredentials`), or nil for an unknown id.
    static func signInCredential(_ credentialID: [UInt8], on db: StoreConnection) throws -> KnownCredentials.Credential? {
        try db.queryOne(
            """
            SELECT p.user_id, p.public_key, h.handle FROM passkeys p LEFT JOIN webauthn_user_handles h ON h.user_id = p.user_id
            WHERE p.credential_id = ?
            """, credentialID
        ) { row in
            KnownCredentials.Credential(userID: row.text(at: 0) ?? "", publicKey: row.blob(at: 1) ?? [], userHandle: row.blob(at: 2))
        }
    }

    /// A sign-in's reads in one: the credential, its account and the account's password
    /// epoch (for the device token), or nil when no account holds it.
    static func signInState(_ credentialID: [UInt8], on db: StoreConnection) throws -> (credential: StoredCredential, user: User, epoch: Int64)? {
        try db.queryOne(signInStateByID, credentialID) { row in
            let user = AccountStore.makeUser(row, from: 3)
            return (StoredCredential(userID: user.id, publicKey: row.blob(at: 1) ?? [], signCount: row.int64(at: 2)), user, row.int64(at: 10))
        }
    }

    private static let signInStateByID = """
        SELECT p.user_id, p.public_key, p.sign_count, \(AccountStore.prefixed(AccountStore.userColumns, with: "u.")), u.password_epoch
        FROM passkeys p JOIN users u ON u.id = p.user_id WHERE p.credential_id = ?
        """

    static func recordUse(_ credentialID: [UInt8], signCount: Int64, backedUp: Bool, now: Int64, on db: StoreConnection) throws {
        try db.run(
            "UPDATE passkeys SET sign_count = ?, backed_up = ?, last_used_at = ? WHERE credential_id = ?", signCount, backedUp, now, credentialID
        )
    }

    /// False when the caller holds no such passkey.
    static func rename(_ credentialID: [UInt8], of userID: String, to name: String, on db: StoreConnection) throws -> Bool {
        try db.queryOne(
            "UPDATE passkeys SET name = ? WHERE credential_id = ? AND user_id = ? RETURNING 1", name, credentialID, userID
        ) { _ in true } ?? false
    }

    static func delete(_ credentialID: [UInt8], of userID: String, on db: StoreConnection) throws {
        try db.run("DELETE FROM passkeys WHERE credential_id = ? AND user_id = ?", credentialID, userID)
    }

    // MARK: User handles

    /// The account's opaque user handle, made (32 random bytes) on its first use.
    static func userHandle(of userID: String, making: Bool, on db: StoreConnection) throws -> [UInt8]? {
        if let handle = try db.queryOne("SELECT handle FROM webauthn_user_handles WHERE user_id = ?", userID, row: { $0.blob(at: 0) }) {
            return handle
        }
        guard making else { return nil }
        let handle = SecureRandom.bytes(32)
        try db.run("INSERT INTO webauthn_user_handles (user_id, handle) VALUES (?, ?)", userID, handle)
        return handle
    }
}
