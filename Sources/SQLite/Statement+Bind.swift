import CSQLite
public import SQLValues

extension Statement {
    /// Number of parameters (`?`, `?NNN`, `:name`) in the SQL.
    public var parameterCount: Int {
        Int(sqlite3_bind_parameter_count(pointer))
    }

    /// Binds `values` to parameters 1...n. The count must match the SQL's parameter count.
    public func bind(_ values: [SQLValue]) throws(SQLiteError) {
        // A count mismatch means the SQL and the call site disagree; binding the first few and
        // leaving the rest NULL would write wrong data, so it is a bug to stop on.
        precondition(
            values.count == parameterCount,
            "statement has \(parameterCount) parameters but \(values.count) values were bound"
        )
        for (offset, value) in values.enumerated() {
            try bind(value, at: offset + 1)
        }
    }

    /// Binds one value to the 1-based parameter `index`.
    public func bind(_ value: SQLValue, at index: Int) throws(SQLiteError) {
        // An index outside 1...parameterCount is a bug at the call site (SQLITE_RANGE).
        precondition(index >= 1 && index <= parameterCount, "parameter index \(index) out of range 1...\(parameterCount)")
        let index = Int32(index)
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(pointer, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(pointer, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(pointer, index, real)
        case .text(let text):
            // withCString never hands over a nil pointer (a nil pointer would bind NULL for ""),
            // and the explicit byte count keeps embedded NUL characters.
            code = text.withCString { characters in
                csqlite_bind_text_transient(pointer, index, characters, UInt64(text.utf8.count))
            }
        case .blob(let bytes):
            if bytes.isEmpty {
                // An empty buffer may have no base address, and a NULL pointer binds NULL;
                // a zero-length blob keeps "empty" distinct from "absent".
                code = sqlite3_bind_zeroblob(pointer, index, 0)
            } else {
                code = bytes.withUnsafeBytes { buffer in
                    csqlite_bind_blob_transient(pointer, index, buffer.baseAddress, UInt64(buffer.count))
                }
            }
        }
        guard code == SQLITE_OK else {
            // Left: SQLITE_TOOBIG and SQLITE_NOMEM, which are runtime conditions.
            throw SQLiteError(resultCode: code, message: String(cString: sqlite3_errstr(code)))
        }
    }

    /// Binds one value to the named parameter (`:email`, `@email` or `$email`, prefix included).
    public func bind(_ value: SQLValue, named name: String) throws(SQLiteError) {
        let index = Int(sqlite3_bind_parameter_index(pointer, name))
        // An unknown name is a typo at the call site.
        precondition(index > 0, "statement has no parameter named \(name)")
        try bind(value, at: index)
    }
}
