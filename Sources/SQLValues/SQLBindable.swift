/// A Swift value that can be bound to a parameter without wrapping it by hand, so callers
/// pass `user.id, email, nil` instead of `.integer(user.id), .text(email), .null`.
public protocol SQLBindable {
    var sqlValue: SQLValue { get }
}

extension SQLValue: SQLBindable {
    public var sqlValue: SQLValue { self }
}

extension Int: SQLBindable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Int64: SQLBindable {
    public var sqlValue: SQLValue { .integer(self) }
}

extension Int32: SQLBindable {
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}

extension Double: SQLBindable {
    public var sqlValue: SQLValue { .real(self) }
}

/// Bound as the integer 0 or 1, not as a PostgreSQL boolean: the schema keeps booleans in
/// integer columns on both databases. (A boolean column accepts "0" and "1" too.)
extension Bool: SQLBindable {
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}

extension String: SQLBindable {
    public var sqlValue: SQLValue { .text(self) }
}

extension Substring: SQLBindable {
    public var sqlValue: SQLValue { .text(String(self)) }
}

extension Array: SQLBindable where Element == UInt8 {
    public var sqlValue: SQLValue { .blob(self) }
}

/// `nil` binds NULL; a present value binds as itself.
extension Optional: SQLBindable where Wrapped: SQLBindable {
    public var sqlValue: SQLValue { self?.sqlValue ?? .null }
}

extension Array where Element == (any SQLBindable)? {
    /// The values a variadic list of bindings stands for (a variadic list cannot be passed
    /// on as one, so wrappers forward this array).
    public var sqlValues: [SQLValue] { map { $0?.sqlValue ?? .null } }
}
