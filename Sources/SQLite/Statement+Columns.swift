import CSQLite
public import SQLValues

extension Statement {
    /// Number of columns in each result row.
    public var columnCount: Int {
        Int(sqlite3_column_count(pointer))
    }

    /// The name of column `index` (its `AS` alias when it has one).
    public func columnName(at index: Int) -> String {
        String(cString: sqlite3_column_name(pointer, checked(index)))
    }

    public func isNull(at index: Int) -> Bool {
        sqlite3_column_type(pointer, checked(index)) == SQLITE_NULL
    }

    /// The column as an integer; NULL reads as 0 and text is converted as SQLite converts it.
    public func int64(at index: Int) -> Int64 {
        sqlite3_column_int64(pointer, checked(index))
    }

    public func int(at index: Int) -> Int {
        Int(int64(at: index))
    }

    /// Nonzero is true, following SQLite's convention for booleans.
    public func bool(at index: Int) -> Bool {
        int64(at: index) != 0
    }

    /// The column as a floating-point number; NULL reads as 0.
    public func double(at index: Int) -> Double {
        sqlite3_column_double(pointer, checked(index))
    }

    /// The column as UTF-8 text, or nil for NULL.
    public func text(at index: Int) -> String? {
        let column = checked(index)
        guard sqlite3_column_type(pointer, column) != SQLITE_NULL,
              let characters = sqlite3_column_text(pointer, column) else { return nil }
        // The byte count (read after the text, as SQLite requires) keeps embedded NULs.
        let count = Int(sqlite3_column_bytes(pointer, column))
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
    }

    /// The column's bytes, or nil for NULL. A zero-length blob reads as `[]`.
    public func blob(at index: Int) -> [UInt8]? {
        let column = checked(index)
        guard sqlite3_column_type(pointer, column) != SQLITE_NULL else { return nil }
        guard let bytes = sqlite3_column_blob(pointer, column) else { return [] }
        let count = Int(sqlite3_column_bytes(pointer, column))
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }

    /// The column as whichever value SQLite holds for it.
    public func value(at index: Int) -> SQLValue {
        switch sqlite3_column_type(pointer, checked(index)) {
        case SQLITE_INTEGER: return .integer(int64(at: index))
        case SQLITE_FLOAT: return .real(double(at: index))
        case SQLITE_TEXT: return text(at: index).map(SQLValue.text) ?? .null
        case SQLITE_BLOB: return blob(at: index).map(SQLValue.blob) ?? .null
        default: return .null
        }
    }

    /// SQLite answers an out-of-range column with NULL, which would hide a wrong index in a
    /// query's reader behind plausible-looking data; a wrong index is a bug, so stop on it.
    private func checked(_ index: Int) -> Int32 {
        precondition(index >= 0 && index < columnCount, "column index \(index) out of range 0..<\(columnCount)")
        return Int32(index)
    }
}
