import CSQLite

/// A compiled statement. It owns its `sqlite3_stmt*` and finalizes it in `deinit`.
///
/// Like its connection, a statement is used by one thread at a time. Parameter indexes are
/// 1-based, as in SQL (`?1`); column indexes are 0-based, as in `sqlite3_column_*`.
public final class Statement {
    let pointer: OpaquePointer
    /// Keeps the database open for as long as this statement exists.
    private let handle: DatabaseHandle

    init(_ pointer: OpaquePointer, handle: DatabaseHandle) {
        self.pointer = pointer
        self.handle = handle
    }

    deinit {
        sqlite3_finalize(pointer)
    }

    /// The SQL text the statement was compiled from.
    public var sql: String {
        String(cString: sqlite3_sql(pointer))
    }

    /// Advances to the next row: `true` when a row is ready to read, `false` when done.
    public func step() throws(SQLiteError) -> Bool {
        switch sqlite3_step(pointer) {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        case let code: throw SQLiteError(resultCode: code, db: handle.pointer)
        }
    }

    /// Steps until done, for statements whose rows (if any) are not wanted.
    public func run() throws(SQLiteError) {
        while try step() {}
    }

    /// Rewinds the statement so it can run again and ends any read it held open.
    /// Bindings are kept; `clearBindings()` drops them.
    public func reset() {
        // sqlite3_reset repeats the error of the last failed step, which step() already threw.
        sqlite3_reset(pointer)
    }

    /// Sets every parameter to NULL and releases SQLite's copies of bound text and blobs.
    public func clearBindings() {
        sqlite3_clear_bindings(pointer)
    }
}
