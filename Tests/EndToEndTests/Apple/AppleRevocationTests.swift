import Foundation
import Testing
import TestSupport

/// Sign in with Apple's server side, end to end: Apple's refresh token kept sealed, and
/// revoked at Apple when the account is deleted (App Store review guideline 5.1.1(v)),
/// through a durable queue that outlives Apple's outages and the server's restarts. The
/// fake Apple (Tests/Tools/fake_apple_endpoints.py) runs over HTTPS with a CA the test
/// made, configured through the settings a user sets; it records what reaches it.
@Suite(.serialized) struct AppleRevocationTests {
    let apple: FakeAppleEndpoints
    let clientID = FakeAppleEndpoints.clientIDs[0]

    init() throws {
        apple = try FakeAppleEndpoints()
    }

    func startServer() throws -> AccountServer {
        try AccountServer(["--log-level", "debug"] + apple.serveArguments)
    }

    func deleteAccount(_ account: Account, on server: AccountServer) throws {
        let deleted = try server.call("DELETE", "/v1/users/me", json: ["password": account.password], token: account.accessToken)
        #expect(deleted.status == 204, "\(deleted)")
    }

    /// Waits (at most 30 s) for the server to record the revocation as done.
    func revokedRow(of userID: String, on server: AccountServer) throws -> (revoked: Bool, tokenKept: Bool)? {
        let rows = try StoredRows(server)
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            let row = try rows.row("SELECT revoked_at, sealed_token FROM apple_revocations WHERE user_id = ?", userID) { row in
                (revoked: !row.isNull(at: 0), tokenKept: !row.isNull(at: 1))
            }
            if let row, row.revoked { return row }
            usleep(100_000)
        }
        return nil
    }

    /// Alice signed in with Apple, and her app handed Latchkey Apple's authorization code;
    /// Latchkey exchanged it and keeps Apple's refresh token, sealed: whoever reads the
    /// database alone does not find it. She then deletes her account. Her authorization at
    /// Apple must end with it: Apple receives the revocation of that very token, for the
    /// client it was issued to, and Latchkey keeps nothing of the token afterwards.
    @Test func deletingTheAccountRevokesItsAppleTokenAtApple() async throws {
        let server = try startServer()
        defer { server.stop() }
        let alice = try server.signUp("alice@example.com", "Alice")
        try await AppleTokenSeed.store(code: "c.alice", clientID: clientID, forAccount: alice.id, of: server, apple: apple)
        #expect(apple.records("exchange").map { $0["refresh_token"] } == ["rt.c.alice"])

        let rows = try StoredRows(server)
        let sealed = try #require(try rows.row("SELECT sealed_token FROM apple_refresh_tokens WHERE user_id = ? AND client_id = ?", alice.id, clientID) { $0.blob(at: 0) } ?? nil)
        let token = Array("rt.c.alice".utf8)
        #expect(sealed.count > token.count)
        #expect(!(0...(sealed.count - token.count)).contains { Array(sealed[$0..<($0 + token.count)]) == token }, "the database holds the token sealed")

        try deleteAccount(alice, on: server)
        let revocations = apple.waitFor("revoke")
        #expect(revocations.count == 1)
        #expect(revocations.first?["token"] == "rt.c.alice")
        #expect(revocations.first?["client_id"] == clientID)
        #expect(revocations.first?["token_type_hint"] == "refresh_token")
        #expect(apple.records("refused").isEmpty, "\(apple.records("refused"))")
        let done = try #require(try revokedRow(of: alice.id, on: server))
        #expect(!done.tokenKept, "a revoked token is not kept")
        #expect(try rows.row("SELECT count(*) FROM apple_refresh_tokens WHERE user_id = ?", alice.id) { $0.int(at: 0) } == 0)
    }

    /// An operator deletes Bob's account with `latchkey users delete` beside the running
    /// server: the same revocation reaches Apple.
    @Test func anAccountDeletedByTheOperatorIsRevokedToo() async throws {
        let server = try startServer()
        defer { server.stop() }
        let bob = try server.signUp("bob@example.com", "Bob")
        try await AppleTokenSeed.store(code: "c.bob", clientID: clientID, forAccount: bob.id, of: server, apple: apple)
        let command = try LatchkeyProcess(arguments: ["users", "delete", "bob@example.com", "--data-dir", server.dataDirectory])
        #expect(command.waitForExit() == 0, "\(command.output)")
        #expect(apple.waitFor("revoke").map { $0["token"] } == ["rt.c.bob"])
    }

    /// Carol deletes her account while Apple is unreachable. The deletion is not held up,
    /// and the revocation is not lost: it is retried with back-off and reaches Apple once
    /// Apple is back. The failures are logged for the operator, and neither Apple's token
    /// nor the authorization code appears in the log, even at debug level.
    @Test func aRevocationWhileAppleIsDownArrivesOnceAppleIsUp() async throws {
        let server = try startServer()
        defer { server.stop() }
        let carol = try server.signUp("carol@example.com", "Carol")
        try await AppleTokenSeed.store(code: "c.carol", clientID: clientID, forAccount: carol.id, of: server, apple: apple)
        apple.stop()
        try deleteAccount(carol, on: server)

        let rows = try StoredRows(server)
        let deadline = Date().addingTimeInterval(20)
        var failure: String?
        while Date() < deadline, failure == nil {
            failure = try rows.row("SELECT last_error FROM apple_revocations WHERE user_id = ?", carol.id) { $0.text(at: 0) } ?? nil
            usleep(100_000)
        }
        let why = try #require(failure, "an attempt failed and was recorded")
        #expect(why.contains("could not be reached"), "\(why)")

        try apple.start()
        #expect(apple.waitFor("revoke").map { $0["token"] } == ["rt.c.carol"])
        #expect(try revokedRow(of: carol.id, on: server) != nil)
        #expect(server.process.output.contains("revoking the Apple token of account \(carol.id)"), "the failure is logged: \(server.process.output)")
        for secret in ["rt.c.carol", "c.carol"] {
            #expect(!server.process.output.contains(secret), "\(secret) in the log")
            #expect(!why.contains(secret))
        }
    }

    /// Dave deletes his account while Apple is down, and the server restarts before Apple
    /// is back: the revocation owed is in the database, so the next start still sends it.
    @Test func aRevocationOwedSurvivesARestart() async throws {
        let server = try startServer()
        let dave = try server.signUp("dave@example.com", "Dave")
        try await AppleTokenSeed.store(code: "c.dave", clientID: clientID, forAccount: dave.id, of: server, apple: apple)
        apple.stop()
        try deleteAccount(dave, on: server)
        server.stop()
        #expect(apple.records("revoke").isEmpty)

        try apple.start()
        let restarted = try server.restarted(["--log-level", "debug"] + apple.serveArguments)
        defer { restarted.stop() }
        #expect(apple.waitFor("revoke").map { $0["token"] } == ["rt.c.dave"])
        #expect(try revokedRow(of: dave.id, on: restarted) != nil)
    }

    /// Erin signs in with Apple a second time: the new token replaces the first, which is
    /// revoked at once, so her account never holds two live authorizations at Apple.
    @Test func aNewTokenReplacesAndRevokesTheOldOne() async throws {
        let server = try startServer()
        defer { server.stop() }
        let erin = try server.signUp("erin@example.com", "Erin")
        try await AppleTokenSeed.store(code: "c.erin.1", clientID: clientID, forAccount: erin.id, of: server, apple: apple)
        try await AppleTokenSeed.store(code: "c.erin.2", clientID: clientID, forAccount: erin.id, of: server, apple: apple)
        #expect(apple.waitFor("revoke").map { $0["token"] } == ["rt.c.erin.1"])
        try deleteAccount(erin, on: server)
        #expect(apple.waitFor("revoke", count: 2).map { $0["token"] } == ["rt.c.erin.1", "rt.c.erin.2"])
    }
}
