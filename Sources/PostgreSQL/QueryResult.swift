import CPostgreSQL

/// Owns one `PGresult*` and frees it in `deinit`, so a thrown error or an early return
/// cannot leak it. Rows handed to a `query` closure point into it.
final class QueryResult {
    let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        libpq.PQclear(pointer)
    }

    var rowCount: Int { Int(libpq.PQntuples(pointer)) }
    var columnCount: Int { Int(libpq.PQnfields(pointer)) }

    /// The command tag, such as `INSERT 0 1` or `SELECT 3`.
    var commandStatus: String { String(cString: libpq.PQcmdStatus(pointer)) }

    /// Rows the command affected; 0 for commands that report no count (PQcmdTuples is "").
    var affectedRows: Int { Int(String(cString: libpq.PQcmdTuples(pointer))) ?? 0 }
}
