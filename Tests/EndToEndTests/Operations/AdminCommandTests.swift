import Foundation
import Testing
import TestSupport

extension Accounts {
    /// The commands an operator runs beside a live server: users and sessions, `healthcheck`
    /// for a container's HEALTHCHECK, `migrate` (`backup`: BackupCommandTests).
    @Suite struct AdminCommands {
        static func run(_ arguments: [String]) throws -> (status: Int32?, output: String) {
            let process = try LatchkeyProcess(arguments: arguments)
            let status = process.waitForExit()
            return (status, process.output.trimmingCharacters(in: .whitespacesAndNewlines))
        }

        static func json(_ output: String) throws -> Any {
            try JSONSerialization.jsonObject(with: Data(output.utf8))
        }

        /// Returns once the clock has left the second `date` fell in (at most a second).
        static func waitForTheNextSecond(after date: Date) {
            let second = date.timeIntervalSince1970.rounded(.down)
            let deadline = Date().addingTimeInterval(2)
            while Date().timeIntervalSince1970.rounded(.down) <= second, Date() < deadline { usleep(10_000) }
        }

        @Test func usersAreListedShownDisabledEnabledAndDeletedBesideTheRunningServer() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            // The list is in order of creation, which `created_at` (whole seconds) decides on
            // both databases only across seconds: within one, PostgreSQL orders by the random id.
            Self.waitForTheNextSecond(after: Date())
            let bob = try server.signUp("bob@example.com", "bob")
            let data = ["--data-dir", server.dataDirectory]

            let listed = try Self.run(["users", "list", "--json"] + data)
            #expect(listed.status == 0)
            let users = try #require(try Self.json(listed.output) as? [[String: Any]])
            #expect(users.map { $0["email"] as? String } == ["ada@example.com", "bob@example.com"])
            #expect(Set(users[0].keys) == ["id", "email", "emailVerified", "displayName", "photoURL", "disabled", "createdAt"])
            #expect(users[0]["photoURL"] is NSNull && users[0]["disabled"] as? Bool == false)
            // Settings flags may stand anywhere, in either form, without being taken for an operand.
            let shown = try Self.run(["users", "show", "--data-dir=\(server.dataDirectory)", "bob@example.com", "--json"])
            #expect((try Self.json(shown.output) as? [String: Any])?["id"] as? String == bob.id, "\(shown.output)")
            let help = try Self.run(["help", "users", "show"])
            #expect(help.status == 0 && help.output.contains("USAGE: latchkey users show <user> [--json]"), "\(help.output)")
            let table = try Self.run(["users", "list"] + data)
            #expect(table.output.hasPrefix("ID") && table.output.contains("EMAIL") && table.output.contains("bob@example.com"))

            let watcher = try PresenceEventStream(server, token: bob.accessToken, watching: [ada.id])
            guard case .presence(ada.id, "online", _)? = try watcher.next() else { throw TestError("no snapshot") }
            let adaStream = try PresenceEventStream(server, token: ada.accessToken, watching: [bob.id], timeout: 10)
            let disabled = try Self.run(["users", "disable", ada.id, "--json"] + data)
            #expect(disabled.status == 0)
            #expect((try Self.json(disabled.output) as? [String: Any])?["disabled"] as? Bool == true)
            expectProblem(try server.me(ada.accessToken), 401, "SESSION_REVOKED", "her sessions ended")
            expectProblem(try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": AccountServer.password]),
                          403, "USER_DISABLED")
            #expect(try adaStream.ends(), "her stream closes within seconds")
            #expect(try PresenceStreams.becomes("offline", server, ada.id, token: bob.accessToken, within: 2))

            #expect(try Self.run(["users", "enable", "ada@example.com"] + data).status == 0)
            let again = try server.logIn("ada@example.com")

            let sessions = try #require(try Self.json(try Self.run(["sessions", "list", "ada@example.com", "--json"] + data).output) as? [[String: Any]])
            #expect(sessions.map { $0["id"] as? String } == [again.sessionID])
            #expect(Set(sessions[0].keys) == ["id", "userId", "createdAt", "lastUsedAt", "userAgent"])
            #expect(try Self.run(["sessions", "revoke", try #require(again.sessionID)] + data).status == 0)
            expectProblem(try server.me(again.accessToken), 401, "SESSION_REVOKED")
            let twice = try Self.run(["sessions", "revoke", try #require(again.sessionID)] + data)
            #expect(twice.status == 1 && twice.output.hasPrefix("latchkey: no unrevoked session"))
            let phone = try server.logIn("bob@example.com")
            #expect(try Self.run(["sessions", "revoke", "--user", "bob@example.com"] + data).status == 0)
            expectProblem(try server.me(phone.accessToken), 401, "SESSION_REVOKED")

            #expect(try Self.run(["users", "delete", "ada@example.com"] + data).status == 0)
            expectProblem(try server.call("GET", "/v1/presence/\(ada.id)", token: try server.logIn("bob@example.com").accessToken), 404, "USER_NOT_FOUND")
            let gone = try Self.run(["users", "show", "ada@example.com"] + data)
            #expect(gone.status == 1 && gone.output == "latchkey: no user ada@example.com")
            let unknown = try Self.run(["users", "frobnicate"] + data)
            #expect(unknown.status == 2 && unknown.output.hasPrefix("latchkey: Unexpected argument 'frobnicate'\nUsage: latchkey users <subcommand>"))
        }

        /// Deleted or disabled by the command in its own process, not through the API: the
        /// running server hears the account event through the database (SQLite's
        /// `account_events`, PostgreSQL's NOTIFY) and a watcher's stream gets her `offline`
        /// within a second of the command's end; her own stream closes.
        @Test(arguments: ["delete", "disable"])
        func watchersOfAUserTheCommandEndsSeeHerGoOfflineWithinASecond(_ command: String) throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            let adaStream = try PresenceEventStream(server, token: ada.accessToken, watching: [bob.id], timeout: 10)
            let watcher = try PresenceEventStream(server, token: bob.accessToken, watching: [ada.id], timeout: 10)
            guard case .presence(ada.id, "online", _)? = try watcher.nextPresence() else { throw TestError("no snapshot") }
            #expect(try Self.run(["users", command, ada.id, "--data-dir", server.dataDirectory]).status == 0)
            let commandEnded = Date()
            #expect(try watcher.hears(ada.id, become: "offline", before: commandEnded.addingTimeInterval(3)), "the watcher hears ada go offline")
            #expect(Date().timeIntervalSince(commandEnded) < 1, "within a second of the command")
            #expect(try adaStream.ends(), "her own stream closes")
        }

        @Test func healthcheckAndMigrateWorkBesideTheRunningServer() throws {
            let server = try AccountServer()
            #expect(try Self.run(["healthcheck", "--port", "\(server.port)"]).status == 0)
            // migrate beside the running server: nothing to apply, nothing disturbed.
            let migrated = try Self.run(["migrate", "--data-dir", server.dataDirectory])
            #expect(migrated.status == 0 && migrated.output.contains("database is up to date"), "\(migrated.output)")
            #expect(try server.signUp("ada@example.com", "ada").id.isEmpty == false)
            server.stop()
            #expect(try Self.run(["healthcheck", "--port", "\(server.port)"]).status == 1)
        }
    }
}

extension Thread {
    /// Runs `work` on a thread of its own; `value` waits for its result.
    static func detachNewThreadWithResult<T: Sendable>(_ work: @escaping @Sendable () -> T) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        Thread.detachNewThread { result.set(work()) }
        return result
    }
}

final class ThreadResult<T: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var stored: T?

    func set(_ value: T) {
        condition.lock()
        stored = value
        condition.broadcast()
        condition.unlock()
    }

    /// Nil when the thread has not finished within a minute.
    var value: T? {
        let deadline = Date().addingTimeInterval(60)
        condition.lock()
        defer { condition.unlock() }
        while stored == nil, condition.wait(until: deadline) {}
        return stored
    }
}
