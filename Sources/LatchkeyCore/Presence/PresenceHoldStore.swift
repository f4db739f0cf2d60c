/// The SQL of presence holds (migrations/0012): which instance holds streams open for
/// which user. A user is online while any hold exists anywhere; an instance that stopped
/// beating for longer than the presence timeout is dead, and its holds go with its row.
enum PresenceHoldStore {
    /// The instance beats; false when its row was gone (another instance took it for
    /// dead and swept its holds), so the caller knows to hold its users again.
    static func heartbeat(_ instanceID: String, now: Int64, on db: StoreConnection) throws -> Bool {
        let existed = try db.queryOne("SELECT 1 FROM presence_instances WHERE id = ?", instanceID) { _ in true } ?? false
        try db.run(
            "INSERT INTO presence_instances (id, heartbeat_at) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
            instanceID, now
        )
        return existed
    }

    /// `instanceID` holds a stream of `userID`. The instance's row comes first (a hold
    /// names it), but only if missing: holds written at once must not all update one row.
    static func hold(_ userID: String, by instanceID: String, now: Int64, on db: StoreConnection) throws {
        try db.run("INSERT INTO presence_instances (id, heartbeat_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING", instanceID, now)
        try db.run("INSERT INTO presence_holds (user_id, instance_id) VALUES (?, ?) ON CONFLICT (user_id, instance_id) DO NOTHING", userID, instanceID)
    }

    /// `instanceID` holds no stream of `userID` any more; true when another instance still does.
    static func release(_ userID: String, by instanceID: String, on db: StoreConnection) throws -> Bool {
        try db.run("DELETE FROM presence_holds WHERE user_id = ? AND instance_id = ?", userID, instanceID)
        return try isHeld(userID, on: db)
    }

    static func anyInstance(on db: StoreConnection) throws -> Bool {
        try db.queryOne("SELECT 1 FROM presence_instances LIMIT 1") { _ in true } ?? false
    }

    static func isHeld(_ userID: String, on db: StoreConnection) throws -> Bool {
        try db.queryOne("SELECT 1 FROM presence_holds WHERE user_id = ? LIMIT 1", userID) { _ in true } ?? false
    }

    /// The users held by instances silent since before `cutoff`. Written as `IN` so the
    /// dead instances (usually none) are found first and their holds through
    /// `presence_holds_by_instance`: as a join, SQLite read every hold of every instance,
    /// 35 ms on the writer every 5 s with 100,000 streams open.
    static let heldByDeadInstances = """
        SELECT DISTINCT user_id FROM presence_holds WHERE instance_id IN (SELECT id FROM presence_instances WHERE heartbeat_at < ?)
        """

    /// Takes away the instances silent since before `cutoff` and their holds; returns the
    /// users left without a hold anywhere (they go offline).
    static func sweepDead(silentSince cutoff: Int64, on db: StoreConnection) throws -> [String] {
        let orphaned = try db.query(heldByDeadInstances, cutoff) { $0.text(at: 0) ?? "" }
        try db.run("DELETE FROM presence_instances WHERE heartbeat_at < ?", cutoff)
        return try orphaned.filter { try !isHeld($0, on: db) }
    }

    /// On a clean stop, after its streams' users were released, or when it holds no stream.
    /// Never while a hold names it (on PostgreSQL one may commit from another writer between
    /// the caller's check and this): its row would take the hold with it.
    static func leave(_ instanceID: String, on db: StoreConnection) throws {
        try db.run(
            "DELETE FROM presence_instances WHERE id = ? AND NOT EXISTS (SELECT 1 FROM presence_holds WHERE instance_id = ?)", instanceID, instanceID
        )
    }
}
