import Foundation

/// One signed-in device of the user (`GET /v1/auth/sessions`): what a "where you're
/// signed in" screen lists, each revocable with `Latchkey.revokeSession(id:)`.
public struct Session: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    public let createdAt: Date
    /// The last refresh: roughly when the device was last used.
    public let lastUsedAt: Date
    /// The `User-Agent` the device signed in with (`LatchkeyConfiguration.userAgent`).
    public let userAgent: String?
    /// True for the session of this client.
    public let current: Bool
}

struct SessionList: Decodable {
    let sessions: [Session]
}
