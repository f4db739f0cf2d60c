/// The SQL of sessions. No refresh token is stored: a session keeps its generation, from
/// which only the holder of the refresh key can make a token (`RefreshToken`).
enum SessionStore {
    private static let columns = "id, user_id, user_agent, created_at, last_used_at, revoked_at, amr"
    /// Where a joined row's user columns start, and then the refresh columns.
    private static let sessionColumnCount = 7
    private static let refreshColumnsAt = sessionColumnCount + 7
    // Built once (statements are cached by their text; see AccountStore).
    private static let byID = "SELECT \(columns) FROM sessions WHERE id = ?"
    private static let withUserByID = withUser(where: "s.id = ?")
    /// PostgreSQL only: the ids are one text-array parameter (`PostgreSQLTextArray`).
    private static let withUserByIDs = withUser(where: "s.id = ANY(CAST(? AS TEXT[]))")
    private static let refreshColumns = "s.refresh_generation, s.rotated_at, s.previous_rotated_at"
    private static let refreshStateByID = withUser(where: "s.id = ?", extra: refreshColumns)
    private static let refreshStatesByIDs = withUser(where: "s.id = ANY(CAST(? AS TEXT[]))", extra: refreshColumns)

    /// Rotates each listed session still at the generation given, not revoked, idle or past
    /// its lifetime, of a user not disabled (`RefreshVerdict`'s `.rotate`, as `rotate` does),
    /// and returns the ids it rotated with their users. PostgreSQL only (array parameters).
    /// The sessions are found by `id = ANY(ids)`, each one's generation looked up by its
    /// place in the list: one primary-key lookup per id, as the batch read does (a reader
    /// connection never scans a table where an index serves; see `PostgreSQLReaderPool`).
    private static let rotateEachUsableAtGeneration = """
        UPDATE sessions AS s
        SET refresh_generation = s.refresh_generation + 1, previous_rotated_at = s.rotated_at, rotated_at = ?, last_used_at = ?
        FROM users u
        WHERE u.id = s.user_id AND u.disabled = 0
          AND s.id = ANY(CAST(? AS TEXT[])) AND s.revoked_at IS NULL AND s.last_used_at >= ? AND s.created_at >= ?
          AND s.refresh_generation = (CAST(? AS BIGINT[]))[array_position(CAST(? AS TEXT[]), s.id)]
        RETURNING s.id, s.amr, \(AccountStore.prefixed(AccountStore.userColumns, with: "u."))
        """

    /// Sessions and their users in one read, those for which `condition` holds.
    private static func withUser(where condition: String, extra: String? = nil) -> String {
        """
        SELECT \(AccountStore.prefixed(columns, with: "s.")), \(AccountStore.prefixed(AccountStore.userColumns, with: "u."))\(extra.map { ", " + $0 } ?? "")
        FROM sessions s JOIN users u ON u.id = s.user_id WHERE \(condition)
        """
    }


    private static let activeOfUser = """
        SELECT \(columns) FROM sessions
        WHERE user_id = ? AND revoked_at IS NULL AND last_used_at >= ? AND created_at >= ? ORDER BY created_at, id
        """

    private static func makeSession(_ row: StoreRow) -> Session {
        Session(
            id: row.text(at: 0) ?? "", userID: row.text(at: 1) ?? "", userAgent: row.text(at: 2),
            createdAt: row.int64(at: 3), lastUsedAt: row.int64(at: 4),
            revokedAt: row.isNull(at: 5) ? nil : row.int64(at: 5), methods: SignInMethods(stored: row.text(at: 6))
        )
    }

    static func create(
        id: String, userID: String, userAgent: String?, methods: SignInMethods, now: Int64, on db: StoreConnection
    ) throws {
        try db.run(
            "INSERT INTO sessions (id, user_id, rotated_at, user_agent, created_at, last_used_at, amr) VALUES (?, ?, ?, ?, ?, ?, ?)",
            id, userID, now, userAgent, now, now, methods.stored
        )
    }

    static func session(id: String, on db: StoreConnection) throws -> Session? {
        try db.queryOne(byID, id, row: makeSession)
    }

    /// A session with its user in one read: the bearer check of every request.
    static func sessionWithUser(id: String, on db: StoreConnection) throws -> (session: Session, user: User)? {
        try db.queryOne(withUserByID, id) { row in (makeSession(row), AccountStore.makeUser(row, from: sessionColumnCount)) }
    }

    /// Many sessions with their users in one read, by session id (those found): a batch of
    /// bearer checks in one round trip. PostgreSQL only. Each id is sent once, however many
    /// checks of a batch name it (a client's parallel requests share a session).
    static func sessionsWithUsers(ids: [String], on db: StoreConnection) throws -> [String: (session: Session, user: User)] {
        var found: [String: (session: Session, user: User)] = [:]
        let distinct = Array(Set(ids))
        let rows = try db.query(withUserByIDs, PostgreSQLTextArray.literal(distinct)) { row in (makeSession(row), AccountStore.makeUser(row, from: sessionColumnCount)) }
        for (session, user) in rows { found[session.id] = (session, user) }
        return found
    }

    /// What a refresh needs of a session, in one read.
    static func refreshState(of sessionID: String, on db: StoreConnection) throws -> RefreshState? {
        try db.queryOne(refreshStateByID, sessionID, row: makeRefreshState)
    }

    /// What refreshes of many sessions need, in one read, by session id (those found).
    /// PostgreSQL only.
    static func refreshStates(ids: [String], on db: StoreConnection) throws -> [String: RefreshState] {
        var states: [String: RefreshState] = [:]
        for state in try db.query(refreshStatesByIDs, PostgreSQLTextArray.literal(ids), row: makeRefreshState) {
            states[state.session.id] = state
        }
        return states
    }

    private static func makeRefreshState(_ row: StoreRow) -> RefreshState {
        RefreshState(
            session: makeSession(row), user: AccountStore.makeUser(row, from: sessionColumnCount), generation: row.int64(at: refreshColumnsAt),
            rotatedAt: row.int64(at: refreshColumnsAt + 1), previousRotatedAt: row.int64(at: refreshColumnsAt + 2)
        )
    }

    /// Rotates each session of `expected` still at its token's generation and usable at
    /// `now` under `policy`, in one statement; returns the users and sign-in methods of those
    /// it rotated, by session id. PostgreSQL only. The ids are distinct (a batch rotates a session once):
    /// each one's generation is found by its first place.
    static func rotateAllUsable(
        _ expected: [RefreshToken], now: Int64, policy: AccountsPolicy, on db: StoreConnection
    ) throws -> [String: (user: User, methods: SignInMethods)] {
        let generations = "{" + expected.map { String($0.generation) }.joined(separator: ",") + "}"
        let ids = PostgreSQLTextArray.literal(expected.map(\.sessionID))
        let rows = try db.query(
            rotateEachUsableAtGeneration, now, now, ids, now - policy.sessionIdleTimeout, now - policy.sessionMaxLifetime, generations, ids
        ) { row in (row.text(at: 0) ?? "", (user: AccountStore.makeUser(row, from: 2), methods: SignInMethods(stored: row.text(at: 1)))) }
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// The key sessions' refresh seeds are derived from (`RefreshSeeds`).
    static func seedKey(on db: StoreConnection) throws -> [UInt8]? {
        try db.queryOne("SELECT secret FROM session_seed_key WHERE id = 1") { $0.blob(at: 0) } ?? nil
    }

    /// The next generation becomes current; the times shift so the two previous
    /// generations' retirement times stay known.
    static func rotate(_ sessionID: String, to generation: Int64, now: Int64, on db: StoreConnection) throws {
        try db.run(
            """
            UPDATE sessions SET refresh_generation = ?, previous_rotated_at = rotated_at, rotated_at = ?, last_used_at = ?
            WHERE id = ?
            """,
            generation, now, now, sessionID
        )
    }

    static func revoke(_ sessionID: String, now: Int64, on db: StoreConnection) throws {
        try db.run("UPDATE sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL", now, sessionID)
    }

    /// Every live session of the user, except `keeping` if given.
    static func revokeAll(of userID: String, keeping: String? = nil, now: Int64, on db: StoreConnection) throws {
        try db.run(
            "UPDATE sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL AND id IS DISTINCT FROM ?",
            now, userID, keeping
        )
    }

    /// Sessions used since `usedSince` and created since `createdSince` (idle timeout and
    /// maximum lifetime), not revoked.
    static func active(of userID: String, usedSince: Int64, createdSince: Int64, on db: StoreConnection) throws -> [Session] {
        try db.query(activeOfUser, userID, usedSince, createdSince, row: makeSession)
    }

    /// Whether `active` would find any session: one row at most, for an account event.
    static func hasActive(of userID: String, usedSince: Int64, createdSince: Int64, on db: StoreConnection) throws -> Bool {
        try db.queryOne(
            "SELECT 1 FROM sessions WHERE user_id = ? AND revoked_at IS NULL AND last_used_at >= ? AND created_at >= ? LIMIT 1",
            userID, usedSince, createdSince
        ) { _ in true } ?? false
    }

    /// Every session of the user not revoked, expired or not, oldest first.
    static func unrevoked(of userID: String, on db: StoreConnection) throws -> [Session] {
        try db.query(
            "SELECT \(columns) FROM sessions WHERE user_id = ? AND revoked_at IS NULL ORDER BY created_at, \(db.dialect.insertionOrder)", userID,
            row: makeSession
        )
    }
}
