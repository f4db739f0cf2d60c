/// At most `perWindow` accepted picture uploads per account in any `window` seconds (30
/// an hour): every upload leaves a stored file behind until it is replaced, so without a
/// ceiling one account could fill the disk the pictures share. Only accepted uploads
/// count; a refused one (415, 413, 429) takes nothing. The count lives in the database
/// (`PictureUploadLog`), so uploads through several instances count once.
struct PictureUploadQuota: Sendable {
    static let perWindow = 30
    static let window: Int64 = 3600

    /// `rateLimitsEnabled`: off, every upload is admitted (and none recorded).
    let enabled: Bool

    /// Seconds until the account may upload again, or nil when it may now. `recent` are the
    /// times of its uploads still inside the window, newest first (at most `perWindow`).
    static func retryAfter(recent: [Int64], now: Int64) -> Int? {
        guard recent.count >= perWindow else { return nil }
        // The oldest of the last `perWindow` leaves the window first.
        return Int(max(recent[perWindow - 1] + window - now, 1))
    }

    /// Throws `Throttled` when the account has used its uploads for now: a look before the
    /// work of stripping and writing the picture. `admit` decides again in the write.
    func check(_ userID: String, now: Int64, on db: StoreConnection) throws {
        guard enabled else { return }
        let recent = try PictureUploadLog.recent(of: userID, since: now - Self.window, limit: Self.perWindow, on: db)
        if let retryAfter = Self.retryAfter(recent: recent, now: now) { throw Throttled(retryAfter: retryAfter) }
    }

    /// Inside the transaction that names the new picture: refuses it (`Throttled`, and the
    /// transaction rolls back) or counts it. Two uploads racing for the last place are
    /// decided one after the other (SQLite's one writer; PostgreSQL's serializable
    /// transactions re-run the loser), so the ceiling holds under concurrency.
    func admit(_ userID: String, now: Int64, on db: StoreConnection) throws {
        guard enabled else { return }
        try PictureUploadLog.forget(of: userID, before: now - Self.window, on: db)
        try check(userID, now: now, on: db)
        try PictureUploadLog.record(userID, at: now, on: db)
    }
}
