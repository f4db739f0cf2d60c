import Foundation

/// Presence: set your own, read anyone's, or watch it live (`presenceUpdates`).
extension Latchkey {
    /// The most ids the server takes in one request.
    static let presenceBatchLimit = 100

    /// Sets the signed-in user's status; `lastSeen` is the server's time.
    @discardableResult
    public func setPresence(_ status: PresenceStatus) async throws -> Presence {
        try await authorized(try .json("PUT", "/v1/presence", ["status": status.rawValue]), as: Presence.self)
    }

    /// One user's presence (`USER_NOT_FOUND`).
    public func presence(of userID: String) async throws -> Presence {
        try await authorized(APIRequest("GET", "/v1/presence/\(APIRequest.encoded(userID))"), as: Presence.self)
    }

    /// The presence of many users, in batches of 100 (the server's limit per request);
    /// unknown ids are left out.
    public func presence(of userIDs: [String]) async throws -> [Presence] {
        var found: [Presence] = []
        for start in stride(from: 0, to: userIDs.count, by: Self.presenceBatchLimit) {
            let batch = userIDs[start..<min(start + Self.presenceBatchLimit, userIDs.count)]
            let request = APIRequest("GET", "/v1/presence?userIds=\(Self.idList(batch))")
            found += try await authorized(request, as: PresenceList.self).presences
        }
        return found
    }

    /// `a,b,c`, each id percent-encoded so that any id keeps the query well-formed.
    static func idList(_ ids: some Sequence<String>) -> String {
        ids.map(APIRequest.encoded).joined(separator: ",")
    }

    /// The presence of up to 100 users, live: first each known user's current presence,
    /// then every change as the server commits it. While it runs the signed-in user is
    /// `online`; when it stops (the consumer stops iterating, the app is killed, the network
    /// drops) the server sets them `offline` and tells their watchers at once: Firebase's
    /// `/userPresence` with `onDisconnect`, with nothing to write.
    ///
    /// A dropped connection is opened again after a pause (`LatchkeyConfiguration.presenceBackoff`,
    /// with the shortest pause after a connection that worked) and starts with a fresh
    /// snapshot of every watched user, so nothing that changed meanwhile is missed. The
    /// sequence ends with an error only when retrying cannot help: signed out, the session
    /// ended, or ids the server refuses (`INVALID_ARGUMENT`).
    public func presenceUpdates(for userIDs: [String]) -> AsyncThrowingStream<Presence, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Presence.self, throwing: (any Error).self, bufferingPolicy: .bufferingNewest(1024))
        let feed = PresenceFeed(client: self, path: "/v1/presence/stream?userIds=\(Self.idList(userIDs))")
        let task = Task { await feed.run(into: continuation) }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}
