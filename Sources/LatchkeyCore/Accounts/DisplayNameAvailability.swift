/// The answer of `GET /v1/display-names/{name}`.
public struct DisplayNameAvailability: Sendable, Equatable {
    public let displayName: String
    public let available: Bool
    /// `TAKEN`, `RESERVED` or a `DISPLAY_NAME_INVALID` reason when not available.
    public let reason: String?

    /// Inline on the event loop's read connection: one primary-key read at most.
    public static func check(_ name: String, reserved: ReservedDisplayNames, reader: StoreReader) throws -> DisplayNameAvailability {
        if let reason = DisplayNameRules.check(name).reason {
            return DisplayNameAvailability(displayName: name, available: false, reason: reason.rawValue)
        }
        if reserved.contains(name) { return DisplayNameAvailability(displayName: name, available: false, reason: "RESERVED") }
        if try reader.read({ db in try AccountStore.claimExists(DisplayNameRules.key(name), on: db) }) {
            return DisplayNameAvailability(displayName: name, available: false, reason: "TAKEN")
        }
        return DisplayNameAvailability(displayName: name, available: true, reason: nil)
    }
}
