/// The SQL of writing imported accounts, one at a time in the caller's transaction (a
/// batch's), with the checks that depend on what the database holds made inside it, so
/// a signup on the running server cannot slip between a check and its write.
enum ImportStore {
    static func write(_ account: ImportedAccount, now: Int64, on db: StoreConnection) throws -> ImportOutcome {
        let existingHash = try db.queryOne("SELECT password_hash FROM users WHERE id = ?", account.id) { $0.text(at: 0) ?? "" }
        if let existingHash, !StoredPassword.isImported(existingHash) { return .skipped(.accountInUse) }
        let emailOwner = try db.queryOne("SELECT id FROM users WHERE email_key = ?", account.email.key) { $0.text(at: 0) } ?? nil
        if let emailOwner, emailOwner != account.id { return .skipped(.emailExists) }

        let isNew = existingHash == nil
        // A refreshed account gives up its name first: it may want it back, or another one.
        if !isNew { try AccountStore.releaseClaim(of: account.id, on: db) }
        var name: String?
        var nameless: ImportNamelessReason?
        switch account.displayName {
        case .claim(let wanted):
            if try AccountStore.claimExists(DisplayNameRules.key(wanted), on: db) { nameless = .unavailable(.taken) } else { name = wanted }
        case .none(let reason):
            nameless = reason
        }
        if isNew {
            try db.run(
                """
                INSERT INTO users (id, email, email_key, email_verified, password_hash, display_name, photo_url, disabled, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                account.id, account.email.address, account.email.key, account.emailVerified, account.passwordHash, name, account.photoURL,
                account.disabled, account.createdAt, now
            )
        } else {
            try db.run(
                """
                UPDATE users SET email = ?, email_key = ?, email_verified = ?, password_hash = ?, display_name = ?, photo_url = ?,
                    disabled = ?, created_at = ?, updated_at = ?
                WHERE id = ?
                """,
                account.email.address, account.email.key, account.emailVerified, account.passwordHash, name, account.photoURL,
                account.disabled, account.createdAt, now, account.id
            )
        }
        if let name { try AccountStore.claim(DisplayNameRules.key(name), for: account.id, now: now, on: db) }
        if let presence = account.presence {
            try db.run(
                "INSERT INTO presence (user_id, status, last_seen) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET status = excluded.status, last_seen = excluded.last_seen",
                account.id, presence.status.rawValue, presence.lastSeen
            )
        } else if isNew {
            try db.run("INSERT INTO presence (user_id, status, last_seen) VALUES (?, 'offline', ?)", account.id, account.createdAt)
        }
        try AuditStore.append(.adminUserImported, user: account.id, detail: isNew ? "firebase" : "firebase update", now: now, on: db)
        return isNew ? .imported(nameless: nameless) : .updated(nameless: nameless)
    }
}
