import Foundation
import LatchkeyClient
import Testing

/// Presence: set and read, and the live sequence over `GET /v1/presence/stream`, which
/// holds its user online, reconnects after the server restarts and resumes with a fresh
/// snapshot.
@Suite(.timeLimit(.minutes(1))) struct PresenceTests {
    typealias Updates = AsyncThrowingStream<Presence, any Error>.Iterator
    let password = ClientTestServer.password

    /// The next update that `wanted` accepts, skipping at most 50 others.
    static func next(_ updates: inout Updates, where wanted: (Presence) -> Bool) async throws -> Presence {
        for _ in 0..<50 {
            guard let presence = try await updates.next() else { throw TestFailure("the updates ended") }
            if wanted(presence) { return presence }
        }
        throw TestFailure("no wanted update among 50")
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Two signed-up users, each with a client.
    static func twoUsers(_ server: ClientTestServer) async throws -> (ada: Latchkey, adaID: String, grace: Latchkey, graceID: String) {
        let (ada, grace) = (server.client(), server.client())
        let adaID = try await ada.signUp(email: "ada@example.com", password: ClientTestServer.password, displayName: "ada").id
        let graceID = try await grace.signUp(email: "grace@example.com", password: ClientTestServer.password, displayName: "grace").id
        return (ada, adaID, grace, graceID)
    }

    @Test func presenceIsSetAndReadAloneOrInBatches() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let (ada, adaID, grace, graceID) = try await Self.twoUsers(server)
        let away = try await ada.setPresence(.away)
        #expect(away.userId == adaID && away.status == .away)
        #expect(try await grace.presence(of: adaID).status == .away)
        #expect(Set(try await grace.presence(of: [adaID, graceID, "unknown"]).map(\.userId)) == [adaID, graceID])
        // More ids than one request may carry (100): sent in batches, unknown ones left out.
        let many = (0..<150).map { "nobody-\($0)" } + [adaID]
        #expect(try await grace.presence(of: many).map(\.userId) == [adaID])
        #expect(try await grace.presence(of: []).isEmpty)
        await expectRefusal(404, .userNotFound) { _ = try await grace.presence(of: "nobody") }
    }

    @Test func theSequenceStartsWithASnapshotThenBringsEachChange() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let (ada, _, grace, graceID) = try await Self.twoUsers(server)
        var updates = ada.presenceUpdates(for: [graceID, "unknown"]).makeAsyncIterator()
        let snapshot = try #require(try await updates.next())
        #expect(snapshot.userId == graceID && snapshot.status == .online, "signup leaves a user online")
        try await grace.setPresence(.away)
        #expect(try await Self.next(&updates) { _ in true }.status == .away)
        try await grace.setPresence(.online)
        #expect(try await Self.next(&updates) { _ in true }.status == .online)
    }

    /// Firebase's onDisconnect, with nothing to write: watching holds you online, and when
    /// your sequence stops your watchers see you offline.
    @Test func aWatcherIsOnlineWhileItsSequenceRunsAndOfflineAfter() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let (ada, adaID, grace, graceID) = try await Self.twoUsers(server)
        try await ada.setPresence(.offline)
        var watchingAda = grace.presenceUpdates(for: [adaID]).makeAsyncIterator()
        #expect(try await Self.next(&watchingAda) { _ in true }.status == .offline)

        let adaWatches = Task {
            for try await _ in ada.presenceUpdates(for: [graceID]) {}
        }
        #expect(try await Self.next(&watchingAda) { $0.status == .online }.userId == adaID)
        adaWatches.cancel()
        #expect(try await Self.next(&watchingAda) { $0.status == .offline }.userId == adaID)
    }

    /// The server restarts: the sequence goes on by itself, and a change made around the
    /// restart arrives either way (in the snapshot a new connection starts with, or as a
    /// change on it).
    @Test func theSequenceReconnectsAfterTheServerRestarts() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let (ada, _, grace, graceID) = try await Self.twoUsers(server)
        var updates = ada.presenceUpdates(for: [graceID]).makeAsyncIterator()
        #expect(try await updates.next()?.status == .online)

        try server.start()  // SIGTERM ends every stream; then the same port and data again
        try await grace.setPresence(.away)
        #expect(try await Self.next(&updates) { $0.status == .away }.userId == graceID)
        try await grace.setPresence(.online)
        #expect(try await Self.next(&updates) { $0.status == .online }.userId == graceID, "and it goes on after")
    }

    /// Retrying cannot bring back a session that ended: the sequence finishes with why.
    @Test func signingOutEndsTheSequence() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let (ada, _, _, graceID) = try await Self.twoUsers(server)
        var updates = ada.presenceUpdates(for: [graceID]).makeAsyncIterator()
        _ = try await updates.next()
        await ada.signOut()
        let error = await latchkeyError {
            for _ in 0..<50 { _ = try await updates.next() }
        }
        // The server ends the stream with the session; reconnecting finds nobody signed in
        // (or, if it raced the local sign-out, the server's SESSION_REVOKED).
        switch error {
        case .notSignedIn?: break
        case .sessionEnded(let problem)?: #expect(problem.code == .sessionRevoked)
        default: Issue.record("expected notSignedIn or SESSION_REVOKED, got \(String(describing: error))")
        }
    }
}
