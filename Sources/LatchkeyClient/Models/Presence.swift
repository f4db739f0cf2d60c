import Foundation

/// A user's presence status as the server keeps it.
public enum PresenceStatus: String, Codable, Sendable, Hashable, CaseIterable {
    case online
    case away
    case offline
}

/// One user's presence (docs/api.md, "Presence"): `lastSeen` is the server's time of the
/// last change, in whole seconds.
public struct Presence: Codable, Sendable, Hashable {
    public let userId: String
    public let status: PresenceStatus
    public let lastSeen: Date

    public init(userId: String, status: PresenceStatus, lastSeen: Date) {
        self.userId = userId
        self.status = status
        self.lastSeen = lastSeen
    }
}

/// `GET /v1/presence?userIds=…` answers a list under one key.
struct PresenceList: Decodable {
    let presences: [Presence]
}
