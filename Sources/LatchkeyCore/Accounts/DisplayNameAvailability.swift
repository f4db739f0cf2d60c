/// The answer of `GET /v1/display-names/{name}`.
public struct DisplayNameAvailability: Sendable, Equatable {
    public let displayName: String
    /// Nil when the name is free.
    public let unavailable: DisplayNameUnavailable?

    public var available: Bool { unavailable == nil }

    /// Inline on the event loop's read connection: one primary-key read at most.
    public static func check(_ name: String, reserved: ReservedDisplayNames, reader: StoreReader) throws -> DisplayNameAvailability {
        if let reason = DisplayNameRules.check(name).reason {
            return DisplayNameAvailability(displayName: name, unavailable: .invalid(reason))
        }
        if reserved.contains(name) { return DisplayNameAvailability(displayName: name, unavailable: .reserved) }
        if try reader.read({ db in try AccountStore.claimExists(DisplayNameRules.key(name), on: db) }) {
            return DisplayNameAvailability(displayName: name, unavailable: .taken)
        }
        return DisplayNameAvailability(displayName: name, unavailable: nil)
    }
}
