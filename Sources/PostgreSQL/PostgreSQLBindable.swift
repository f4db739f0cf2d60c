/// A Swift value that can be bound to a parameter without wrapping it by hand, so store
/// code passes `user.id, email, nil` instead of `.integer(user.id), .text(email), .null`.
public protocol PostgreSQLBindable {
    var postgresqlValue: PostgreSQLValue { get }
}

extension PostgreSQLValue: PostgreSQLBindable {
    public var postgresqlValue: PostgreSQLValue { self }
}

extension Int: PostgreSQLBindable {
    public var postgresqlValue: PostgreSQLValue { .integer(Int64(self)) }
}

extension Int64: PostgreSQLBindable {
    public var postgresqlValue: PostgreSQLValue { .integer(self) }
}

extension Int32: PostgreSQLBindable {
    public var postgresqlValue: PostgreSQLValue { .integer(Int64(self)) }
}

extension Double: PostgreSQLBindable {
    public var postgresqlValue: PostgreSQLValue { .real(self) }
}

/// Bound as the integer 0 or 1, not as a PostgreSQL boolean: the schema keeps booleans in
/// integer columns, as it does on SQLite. (A boolean column accepts "0" and "1" too.)
extension Bool: PostgreSQLBindable {
    public var postgresqlValue: PostgreSQLValue { .integer(self ? 1 : 0) }
}

extension String: PostgreSQLBindable {
    public var postgresqlValue: PostgreSQLValue { .text(self) }
}

extension Substring: PostgreSQLBindable {
    public var postgresqlValue: PostgreSQLValue { .text(String(self)) }
}

extension Array: PostgreSQLBindable where Element == UInt8 {
    public var postgresqlValue: PostgreSQLValue { .blob(self) }
}

/// `nil` binds NULL; a present value binds as itself.
extension Optional: PostgreSQLBindable where Wrapped: PostgreSQLBindable {
    public var postgresqlValue: PostgreSQLValue { self?.postgresqlValue ?? .null }
}
