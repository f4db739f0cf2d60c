/// One value bound to a store statement, whichever database runs it. A boolean is the
/// integer 0 or 1 everywhere: the schema's flag columns are integers on every backend.
enum StoreValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A Swift value a store binds as it is (`user.id, now, nil`), without wrapping it by hand.
protocol StoreBindable {
    var storeValue: StoreValue { get }
}

extension StoreValue: StoreBindable {
    var storeValue: StoreValue { self }
}

extension String: StoreBindable {
    var storeValue: StoreValue { .text(self) }
}

extension Int: StoreBindable {
    var storeValue: StoreValue { .integer(Int64(self)) }
}

extension Int64: StoreBindable {
    var storeValue: StoreValue { .integer(self) }
}

extension Bool: StoreBindable {
    var storeValue: StoreValue { .integer(self ? 1 : 0) }
}

extension Double: StoreBindable {
    var storeValue: StoreValue { .real(self) }
}

extension Array: StoreBindable where Element == UInt8 {
    var storeValue: StoreValue { .blob(self) }
}

/// `nil` binds NULL; a present value binds as itself.
extension Optional: StoreBindable where Wrapped: StoreBindable {
    var storeValue: StoreValue { self?.storeValue ?? .null }
}
