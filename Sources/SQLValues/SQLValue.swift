/// One value as bound to a statement's parameter or read from a column, the same for
/// SQLite and PostgreSQL, so code that builds bindings builds them once for either.
///
/// Literals convert directly (`42`, `1.5`, `"text"`, `nil`, `true`), so bindings read as
/// plain values; Bool is the integer 0 or 1, as SQLite itself stores it and as the schema
/// keeps its flags on both databases.
public enum SQLValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension SQLValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLValue: ExpressibleByArrayLiteral {
    /// An array literal of bytes is a blob (bytea on PostgreSQL): `[0x00, 0xFF]`.
    public init(arrayLiteral elements: UInt8...) { self = .blob(elements) }
}
