/// One SQLite value, as bound to a parameter or read from a column.
///
/// Literals convert directly (`42`, `1.5`, `"text"`, `nil`, `true`), so bindings read as
/// plain values; Bool is stored as the integer 0 or 1, as SQLite itself does.
public enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

extension SQLiteValue: ExpressibleByNilLiteral {
    public init(nilLiteral: ()) { self = .null }
}

extension SQLiteValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self = .integer(value) }
}

extension SQLiteValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) { self = .real(value) }
}

extension SQLiteValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}

extension SQLiteValue: ExpressibleByStringLiteral {
    public init(stringLiteral value: String) { self = .text(value) }
}

extension SQLiteValue: ExpressibleByArrayLiteral {
    /// An array literal of bytes is a blob: `[0x00, 0xFF]`.
    public init(arrayLiteral elements: UInt8...) { self = .blob(elements) }
}
