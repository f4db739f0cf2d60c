import CPostgreSQL
public import SQLValues

/// One row of a query's result, handed to the closure of `Connection.query`, with the same
/// accessors as SQLite's `Row` so a store's row readers compile against either.
///
/// Columns arrive as text (the statement asks for text results), and each accessor parses
/// its type from that text. Unlike SQLite's row, a row here stays valid after the closure
/// (it holds the whole result), but read it inside the closure all the same: code written
/// that way works on both databases.
public struct Row {
    let result: QueryResult
    let index: Int32

    init(_ result: QueryResult, index: Int) {
        self.result = result
        self.index = Int32(index)
    }

    /// BYTEAOID from pg_type.h: the one type whose text form needs decoding into bytes.
    static let byteaType: UInt32 = 17

    public var columnCount: Int { result.columnCount }

    /// The name of column `index` (its `AS` alias when it has one).
    public func columnName(at index: Int) -> String {
        String(cString: libpq.PQfname(result.pointer, checked(index)))
    }

    public func isNull(at index: Int) -> Bool {
        libpq.PQgetisnull(result.pointer, self.index, checked(index)) == 1
    }

    /// The column as an integer; NULL reads as 0, as on SQLite. A PostgreSQL boolean reads
    /// as 1 or 0, a decimal as its integer part, anything unparsable as 0.
    public func int64(at index: Int) -> Int64 {
        guard let text = text(at: index) else { return 0 }
        if let integer = Int64(text) { return integer }
        switch text {
        case "t": return 1
        case "f": return 0
        default:
            guard let real = Double(text), real.isFinite,
                  real >= -9.223_372_036_854_775_808e18, real < 9.223_372_036_854_775_808e18 else { return 0 }
            return Int64(real)
        }
    }

    public func int(at index: Int) -> Int {
        Int(int64(at: index))
    }

    /// Nonzero integers are true, following SQLite's convention for booleans (the schema
    /// keeps booleans as integers); a real PostgreSQL boolean (`t`/`f`) reads as itself.
    public func bool(at index: Int) -> Bool {
        int64(at: index) != 0
    }

    /// The column as a floating-point number; NULL reads as 0. `Infinity`, `-Infinity` and
    /// `NaN` (PostgreSQL's spellings) read as the matching Double.
    public func double(at index: Int) -> Double {
        guard let text = text(at: index) else { return 0 }
        switch text {
        case "Infinity": return .infinity
        case "-Infinity": return -.infinity
        case "NaN": return .nan
        default: return Double(text) ?? 0
        }
    }

    /// The column as UTF-8 text, or nil for NULL. A bytea column reads as its text form
    /// (`\x0102`); use `blob(at:)` for its bytes.
    public func text(at index: Int) -> String? {
        guard let bytes = raw(at: index) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The column's bytes, or nil for NULL. A bytea column is decoded from its text form
    /// (hex `\x…`, or the older escape form if the server was set to send it); any other
    /// column gives its text's UTF-8 bytes. A zero-length value reads as `[]`.
    public func blob(at index: Int) -> [UInt8]? {
        guard let bytes = raw(at: index) else { return nil }
        guard libpq.PQftype(result.pointer, Int32(index)) == Self.byteaType else { return Array(bytes) }
        return ByteaText.decode(bytes)
    }

    /// The column as the value its PostgreSQL type maps to: integers (and booleans, as
    /// 0/1) to `.integer`, float4/float8 to `.real`, bytea to `.blob`, everything else
    /// (numeric, timestamps, uuid, json) to `.text` in PostgreSQL's text form.
    public func value(at index: Int) -> SQLValue {
        guard !isNull(at: index) else { return .null }
        switch libpq.PQftype(result.pointer, Int32(index)) {
        case 16, 20, 21, 23, 26: return .integer(int64(at: index))   // bool, int8, int2, int4, oid
        case 700, 701: return .real(double(at: index))                // float4, float8
        case Self.byteaType: return blob(at: index).map(SQLValue.blob) ?? .null
        default: return text(at: index).map(SQLValue.text) ?? .null
        }
    }

    /// The value's bytes as the server sent them (valid while the result lives), nil for NULL.
    private func raw(at index: Int) -> UnsafeRawBufferPointer? {
        let column = checked(index)
        guard libpq.PQgetisnull(result.pointer, self.index, column) == 0 else { return nil }
        let length = Int(libpq.PQgetlength(result.pointer, self.index, column))
        return UnsafeRawBufferPointer(start: libpq.PQgetvalue(result.pointer, self.index, column), count: length)
    }

    /// libpq answers an out-of-range column with an empty string, which would hide a wrong
    /// index in a query's reader behind plausible-looking data; a wrong index is a bug.
    private func checked(_ index: Int) -> Int32 {
        precondition(index >= 0 && index < columnCount, "column index \(index) out of range 0..<\(columnCount)")
        return Int32(index)
    }
}
