import Foundation
import Testing
import TestSupport

/// Two `latchkey serve` over one PostgreSQL database, as a load balancer would spread a
/// client's requests: whatever one instance did, the other knows at the next request, or,
/// where it answers from its copy of a session in memory, within 50 ms (`heardWithin`).
/// They share the data directory too (signing and refresh keys), as instances share a volume.
@Suite struct TwoInstancesTests {
    private final class Pair {
        let database: TestDatabase
        let a: AccountServer
        let b: AccountServer

        init() throws {
            database = try TestDatabase()
            a = try AccountServer(["--database", database.url])
            b = try AccountServer(["--database", database.url], dataDirectory: a.dataDirectory, signingKey: a.signingKey)
        }

        func stop() {
            a.stop()
            b.stop()
            database.drop()
        }
    }

    @Test func aSessionMadeThroughOneWorksThroughTheOtherUntilRevokedThroughEither() throws {
        let servers = try Pair()
        defer { servers.stop() }
        let ada = try servers.a.signUp("ada@example.com", "Ada.L")
        let me = try servers.b.me(ada.accessToken)
        #expect(me.status == 200)
        #expect(me["id"] as? String == ada.id)
        let refreshed = try servers.b.refresh(ada.refreshToken)
        #expect(refreshed.status == 200, "B honours the refresh token A issued")
        let token = try #require(refreshed["accessToken"] as? String)

        #expect(try servers.a.call("POST", "/v1/auth/logout-all", token: token).status == 204)
        let refusedAfter = try Accounts.HeldSessions.timeUntil(1) { try servers.b.me(token).status == 401 }
        let seconds = try #require(refusedAfter, "B still answered a second after A's revocation")
        #expect(seconds < Self.heardWithin, "B refused it after \(seconds) s")
        expectProblem(try servers.b.me(token), 401, "SESSION_REVOKED")
    }

    @Test func aNameClaimedThroughOneIsTakenThroughTheOther() throws {
        let servers = try Pair()
        defer { servers.stop() }
        try servers.a.signUp("ada@example.com", "Ada.L")
        let availability = try servers.b.availability("ADA.L")
        #expect(availability.status == 200)
        #expect(availability["available"] as? Bool == false)
        #expect(availability["reason"] as? String == "TAKEN")
        let contested = try servers.b.call(
            "POST", "/v1/auth/signup", json: ["email": "grace@example.com", "password": AccountServer.password, "displayName": "ada.l"]
        )
        #expect(contested.status == 409)
        #expect(contested.code == "DISPLAY_NAME_TAKEN")
    }

    @Test func aPresenceSetThroughOneIsReadThroughTheOther() throws {
        let servers = try Pair()
        defer { servers.stop() }
        let ada = try servers.a.signUp("ada@example.com", "Ada.L")
        let bob = try servers.b.signUp("bob@example.com", "Bob")
        #expect(try servers.a.call("PUT", "/v1/presence", json: ["status": "away"], token: ada.accessToken).status == 200)
        let read = try servers.b.call("GET", "/v1/presence/\(ada.id)", token: bob.accessToken)
        #expect(read.status == 200)
        #expect(read["status"] as? String == "away")
    }

    @Test func aChangeThroughOneReachesAStreamOnTheOtherAndStreamsOnBothHoldTheUser() throws {
        let servers = try Pair()
        defer { servers.stop() }
        let ada = try servers.a.signUp("ada@example.com", "Ada.L")
        let bob = try servers.b.signUp("bob@example.com", "Bob")
        let watcher = try PresenceEventStream(servers.b, token: bob.accessToken, watching: [ada.id])
        guard case .presence(ada.id, _, _)? = try watcher.next() else { throw TestError("no snapshot") }

        let away = try servers.a.call("PUT", "/v1/presence", json: ["status": "away"], token: ada.accessToken)
        let sent = Date()
        #expect(try watcher.nextPresence() == .presence(userID: ada.id, status: "away", lastSeen: away["lastSeen"] as! String))
        #expect(Date().timeIntervalSince(sent) < 1, "through LISTEN/NOTIFY, not a poll")

        // A stream on each instance: closing one leaves her online through the other.
        var onA: PresenceEventStream? = try PresenceEventStream(servers.a, token: ada.accessToken, watching: [bob.id])
        guard case .presence(ada.id, "online", _)? = try watcher.nextPresence() else { throw TestError("ada did not come online on B's stream") }
        var onB: PresenceEventStream? = try PresenceEventStream(servers.b, token: ada.accessToken, watching: [bob.id])
        #expect(onA?.head.status == 200 && onB?.head.status == 200)
        onA = nil
        usleep(300_000)
        #expect(try Accounts.PresenceStreams.status(servers.a, of: ada.id, token: bob.accessToken) == "online")
        onB = nil
        // B's stream brought its own "online" (each instance's first stream of a user says so).
        var statuses: [String] = []
        for _ in 0..<5 where statuses.last != "offline" {
            guard case .presence(ada.id, let status, _)? = try watcher.nextPresence() else { throw TestError("the stream ended") }
            statuses.append(status)
        }
        #expect(statuses.last == "offline" && !statuses.dropLast().contains("offline"), "offline only once the last stream closed: \(statuses)")
        _ = (onA, onB)
    }
    /// An account event made through one instance reaches the other at once (NOTIFY on
    /// commit), not at its next sweep: her stream on B closes, and a watcher on B hears her
    /// go offline, within a second of the logout through A.
    @Test func aLogoutThroughOneClosesTheSessionsStreamOnTheOtherAtOnce() throws {
        let servers = try Pair()
        defer { servers.stop() }
        let ada = try servers.a.signUp("ada@example.com", "Ada.L")
        let bob = try servers.b.signUp("bob@example.com", "Bob")
        let adaOnB = try PresenceEventStream(servers.b, token: ada.accessToken, watching: [bob.id], timeout: 10)
        guard case .presence(bob.id, _, _)? = try adaOnB.nextPresence() else { throw TestError("no snapshot") }
        let watcher = try PresenceEventStream(servers.b, token: bob.accessToken, watching: [ada.id], timeout: 10)
        guard case .presence(ada.id, "online", _)? = try watcher.nextPresence() else { throw TestError("no snapshot") }

        #expect(try servers.a.call("POST", "/v1/auth/logout", token: ada.accessToken).status == 204)
        let loggedOut = Date()
        #expect(try watcher.hears(ada.id, become: "offline", before: loggedOut.addingTimeInterval(3)), "the watcher on B hears ada go offline")
        #expect(try adaOnB.ends(), "her stream on B closes")
        #expect(Date().timeIntervalSince(loggedOut) < 1, "at once, not at B's next 5-second sweep")
    }

    /// The figure README states: what one instance changes, another instance that holds the
    /// session in memory sees within 50 ms (NOTIFY on commit; measured from the answer to
    /// the change, polling every 2 ms).
    static let heardWithin: TimeInterval = 0.05

    /// A stolen phone revoked through A: B, which has been answering the phone from memory,
    /// refuses it within the stated time.
    @Test func aSessionRevokedThroughOneIsRefusedByTheOtherWithinFiftyMilliseconds() throws {
        let servers = try Pair()
        defer { servers.stop() }
        let laptop = try servers.a.signUp("ada@example.com", "Ada.L")
        let phone = try servers.b.logIn("ada@example.com")
        try Accounts.HeldSessions.warm(servers.b, phone)

        let sessionID = try #require(phone.sessionID)
        #expect(try servers.a.call("DELETE", "/v1/auth/sessions/\(sessionID)", token: laptop.accessToken).status == 204)
        let refusedAfter = try Accounts.HeldSessions.timeUntil(1) { try servers.b.me(phone.accessToken).status == 401 }
        let seconds = try #require(refusedAfter, "B still answered the revoked session a second later")
        #expect(seconds < Self.heardWithin, "B refused it after \(seconds) s")
        expectProblem(try servers.b.me(phone.accessToken), 401, "SESSION_REVOKED")
    }

    /// A rename through A: B, holding her other session, answers the new name within the
    /// stated time.
    @Test func aNameChangedThroughOneIsSeenByTheOtherWithinFiftyMilliseconds() throws {
        let servers = try Pair()
        defer { servers.stop() }
        let laptop = try servers.a.signUp("ada@example.com", "Ada.L")
        let phone = try servers.b.logIn("ada@example.com")
        try Accounts.HeldSessions.warm(servers.b, phone)

        #expect(try servers.a.call("PATCH", "/v1/users/me", json: ["displayName": "Countess"], token: laptop.accessToken).status == 200)
        let seenAfter = try Accounts.HeldSessions.timeUntil(1) { try servers.b.me(phone.accessToken)["displayName"] as? String == "Countess" }
        let seconds = try #require(seenAfter, "B still answered the old name a second later")
        #expect(seconds < Self.heardWithin, "B answered the new name after \(seconds) s")
    }

    /// An operator disables an account from the command line: B, holding its session,
    /// refuses it within the stated time of the command's end.
    @Test func aUserDisabledByTheCommandIsRefusedByBothWithinFiftyMilliseconds() throws {
        let servers = try Pair()
        defer { servers.stop() }
        let mallory = try servers.a.signUp("mallory@example.com", "mallory")
        try Accounts.HeldSessions.warm(servers.a, mallory)
        try Accounts.HeldSessions.warm(servers.b, mallory)

        let disabled = try Accounts.AdminCommands.run(
            ["users", "disable", mallory.id, "--database", servers.database.url, "--data-dir", servers.a.dataDirectory])
        #expect(disabled.status == 0, "\(disabled.output)")
        let commandEnded = Date()
        for server in [servers.a, servers.b] {
            let refusedAfter = try Accounts.HeldSessions.timeUntil(1, since: commandEnded) { try server.me(mallory.accessToken).status == 401 }
            let seconds = try #require(refusedAfter, "still answered a second after the account was disabled")
            #expect(seconds < Self.heardWithin, "refused after \(seconds) s")
        }
    }
}
