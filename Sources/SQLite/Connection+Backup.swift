import CSQLite

extension Connection {
    /// Copies this database into a new file at `path` with SQLite's online backup API.
    /// The copy is one step inside one read snapshot: in WAL mode a reader never blocks the
    /// writer, so a running server goes on committing while the copy is consistent as of
    /// its start (a step-by-step copy would restart at every commit).
    public func backup(to path: String) throws(SQLiteError) {
        var pointer: OpaquePointer?
        let opened = sqlite3_open_v2(path, &pointer, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard opened == SQLITE_OK, let destination = pointer else {
            let error = SQLiteError(resultCode: opened, db: pointer)
            sqlite3_close_v2(pointer)
            throw error
        }
        defer { sqlite3_close_v2(destination) }
        guard let backup = sqlite3_backup_init(destination, "main", handle.pointer, "main") else {
            throw SQLiteError(resultCode: sqlite3_errcode(destination), db: destination)
        }
        let stepped = sqlite3_backup_step(backup, -1)
        let finished = sqlite3_backup_finish(backup)
        guard stepped == SQLITE_DONE, finished == SQLITE_OK else {
            throw SQLiteError(resultCode: stepped == SQLITE_DONE ? finished : stepped, db: destination)
        }
    }
}
