/// The names nobody may claim, in any case (`reservedDisplayNames` in the configuration).
/// A value built once at start-up and shared read-only, so checking it needs no lock.
public struct ReservedDisplayNames: Sendable {
    private let keys: Set<String>

    public init(_ names: [String]) {
        keys = Set(names.map(DisplayNameRules.key))
    }

    public func contains(_ name: String) -> Bool {
        keys.contains(DisplayNameRules.key(name))
    }
}
