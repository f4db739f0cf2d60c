import CSQLite

/// Owns the `sqlite3*` and closes it when the last owner is gone.
///
/// Both the connection and each of its statements hold the handle, so a statement that
/// outlives its `Connection` object still points at an open database, and the connection's
/// statement cache does not form a reference cycle with the connection.
final class DatabaseHandle {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        // Every statement holds this handle, so all of them are finalized by now and
        // close_v2 releases the file at once.
        sqlite3_close_v2(pointer)
    }
}
