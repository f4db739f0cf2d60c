import Foundation

/// Whether a display name can be claimed right now (`GET /v1/display-names/{name}`), for
/// checking a name while the user types, before signing up or renaming.
public struct DisplayNameAvailability: Codable, Sendable, Hashable {
    /// The name as asked.
    public let displayName: String
    public let available: Bool
    /// Why not, when `available` is false: `TAKEN`, `RESERVED`, or one of the
    /// `DISPLAY_NAME_INVALID` reasons (`TOO_SHORT`, `TOO_LONG`, `INVALID_CHARACTERS`,
    /// `LEADING_OR_TRAILING_PERIOD`, `CONSECUTIVE_PERIODS`). A string, so a reason a later
    /// server adds still decodes.
    public let reason: String?

    public init(displayName: String, available: Bool, reason: String?) {
        (self.displayName, self.available, self.reason) = (displayName, available, reason)
    }
}
