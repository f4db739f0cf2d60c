/// The accepted picture uploads of each account, one row each (migrations/0014): what
/// `PictureUploadQuota` counts. An account's rows older than the window are dropped as it
/// uploads again, so it keeps at most `PictureUploadQuota.perWindow` of them; they go with
/// the account (cascade).
enum PictureUploadLog {
    /// The times of `userID`'s uploads after `since`, newest first, at most `limit`.
    static func recent(of userID: String, since: Int64, limit: Int, on db: StoreConnection) throws -> [Int64] {
        try db.query(
            "SELECT uploaded_at FROM picture_uploads WHERE user_id = ? AND uploaded_at > ? ORDER BY uploaded_at DESC LIMIT ?",
            userID, since, Int64(limit)
        ) { $0.int64(at: 0) }
    }

    static func record(_ userID: String, at now: Int64, on db: StoreConnection) throws {
        try db.run("INSERT INTO picture_uploads (user_id, uploaded_at) VALUES (?, ?)", userID, now)
    }

    static func forget(of userID: String, before cutoff: Int64, on db: StoreConnection) throws {
        try db.run("DELETE FROM picture_uploads WHERE user_id = ? AND uploaded_at <= ?", userID, cutoff)
    }
}
