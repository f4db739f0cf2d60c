/// One value as bound to a parameter or read from a column, with the same cases as
/// SQLite's `SQLiteValue` so store code builds its bindings the same way for both.
///
/// Literals convert directly (`42`, `1.5`, `"text"`, `nil`, `true`); Bool is the integer
/// 0 or 1, because the schema keeps booleans as integers on both databases.
public enum PostgreSQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension PostgreSQLValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension PostgreSQLValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension PostgreSQLValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension PostgreSQLValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension PostgreSQLValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

extension PostgreSQLValue: ExpressibleByArrayLiteral {
    /// An array literal of bytes is a blob (bytea): `[0x00, 0xFF]`.
    public init(arrayLiteral elements: UInt8...) { self = .blob(elements) }
}
