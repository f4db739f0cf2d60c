import CSQLite

/// One SQLite connection.
///
/// A connection is opened with SQLITE_OPEN_NOMUTEX: SQLite does no locking of its own for
/// it, and the connection (with its statement cache and error message) must be used by one
/// thread at a time. It is `@unchecked Sendable` so it can be handed to the thread that
/// will own it (an event loop, the writer's queue); that owner confines every call to
/// itself. Open one connection per thread instead of sharing one.
public final class Connection: @unchecked Sendable {
    let handle: DatabaseHandle
    var statementCache: [StatementCacheKey: Statement] = [:]

    /// How long a statement waits for another connection's lock before `SQLiteError.busy`.
    public static let defaultBusyTimeoutMilliseconds: Int32 = 5_000

    /// Opens (and in `.readWrite` mode creates) the database at `path`.
    ///
    /// Every connection gets extended result codes, a busy timeout and `foreign_keys=ON`.
    /// A read-write connection also switches the file to WAL, so readers never wait for the
    /// writer, and sets `synchronous=FULL`, so a committed write survives power loss.
    public init(
        path: String,
        mode: OpenMode = .readWrite,
        busyTimeoutMilliseconds: Int32 = Connection.defaultBusyTimeoutMilliseconds
    ) throws(SQLiteError) {
        Self.configureLibraryOnce()
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readWrite: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        }
        var pointer: OpaquePointer?
        let code = sqlite3_open_v2(path, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            // On failure SQLite usually still allocates a handle, which carries the message
            // and must be closed.
            let error = SQLiteError(resultCode: code, db: pointer)
            sqlite3_close_v2(pointer)
            throw error
        }
        handle = DatabaseHandle(pointer)
        sqlite3_extended_result_codes(pointer, 1)
        sqlite3_busy_timeout(pointer, busyTimeoutMilliseconds)
        // Double-quoted strings are identifiers only: `WHERE email = "x"` is an error
        // instead of silently comparing against a column or a literal.
        _ = csqlite_db_config_bool(pointer, SQLITE_DBCONFIG_DQS_DML, 0)
        _ = csqlite_db_config_bool(pointer, SQLITE_DBCONFIG_DQS_DDL, 0)
        try execute("PRAGMA foreign_keys = ON")
        if mode == .readWrite {
            try execute("PRAGMA journal_mode = WAL")
            try execute("PRAGMA synchronous = FULL")
        }
    }

    /// Process-wide settings, made before the first connection initializes SQLite: memory
    /// statistics off (`csqlite_config_memstatus_off` says why). A Swift global runs its
    /// initializer once, whichever thread opens the first connection.
    private static let libraryConfigured: Void = {
        _ = csqlite_config_memstatus_off()
        _ = sqlite3_initialize()
    }()

    private static func configureLibraryOnce() {
        libraryConfigured
    }

    /// Runs one or more statements separated by semicolons, discarding any rows.
    /// Meant for schema scripts and pragmas; it binds nothing, so it must never see user input.
    public func execute(_ sql: String) throws(SQLiteError) {
        var errorMessage: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle.pointer, sql, nil, nil, &errorMessage)
        guard code != SQLITE_OK else { return }
        let message = errorMessage.map { String(cString: $0) }
        sqlite3_free(errorMessage)
        if let message {
            throw SQLiteError(resultCode: code, message: message)
        }
        throw SQLiteError(resultCode: code, db: handle.pointer)
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE on this connection.
    public var changes: Int {
        Int(sqlite3_changes64(handle.pointer))
    }

    /// The rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 {
        sqlite3_last_insert_rowid(handle.pointer)
    }

    /// Whether a transaction is open (SQLite is not in autocommit mode).
    public var isInTransaction: Bool {
        sqlite3_get_autocommit(handle.pointer) == 0
    }

    /// Copies the whole WAL back into the database file and truncates the WAL to zero bytes;
    /// for a clean shutdown or a backup. Fails with `.busy` while readers still need the WAL.
    public func checkpoint() throws(SQLiteError) {
        let code = sqlite3_wal_checkpoint_v2(handle.pointer, nil, SQLITE_CHECKPOINT_TRUNCATE, nil, nil)
        guard code == SQLITE_OK else {
            throw SQLiteError(resultCode: code, db: handle.pointer)
        }
    }
}
