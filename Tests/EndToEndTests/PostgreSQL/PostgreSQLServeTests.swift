import Foundation
import PostgreSQL
import Testing
import TestSupport

/// `latchkey serve` and `migrate` with `--database postgres://…`, each test on a fresh
/// database of the test cluster.
@Suite struct PostgreSQLServeTests {
    @Test func aServerOnPostgreSQLServesTheAccountFlow() throws {
        let database = try TestDatabase()
        defer { database.drop() }
        let server = try AccountServer(["--database", database.url])
        defer { server.stop() }
        let password = try #require(Self.password(of: database.url))
        #expect(server.process.output.contains("database=postgres://latchkey@"), "the start-up line names the database")
        #expect(!server.process.output.contains(password), "never the password")
        let maps = try server.process.memoryMap()
        #expect(maps.contains("libpq.so.5"), "libpq is loaded when the database is PostgreSQL")
        let threads = try server.process.threadNames()
        for name in ["refresh-batch-0", "session-batch-0", "store-read-0", "presence-listen", "presence-notify", "db-writer"] {
            #expect(threads.contains(name), "\(name) in \(threads)")
        }

        let ada = try server.signUp("ada@example.com", "Ada.L")
        let login = try server.logIn("ada@example.com")
        let refreshed = try server.refresh(login.refreshToken)
        #expect(refreshed.status == 200)
        let token = try #require(refreshed["accessToken"] as? String)
        let me = try server.me(token)
        #expect(me.status == 200)
        #expect(me["id"] as? String == ada.id && me["displayName"] as? String == "Ada.L")
        #expect(try server.availability("ada.l")["available"] as? Bool == false)
        #expect(try server.availability("grace.h")["available"] as? Bool == true)

        let away = try server.call("PUT", "/v1/presence", json: ["status": "away"], token: token)
        #expect(away.status == 200)
        #expect(try server.call("GET", "/v1/presence/\(ada.id)", token: token)["status"] as? String == "away")

        #expect(try server.call("POST", "/v1/auth/logout-all", token: token).status == 204)
        let revoked = try server.me(token)
        #expect(revoked.status == 401)
        #expect(revoked.code == "SESSION_REVOKED")
        #expect(try server.me(ada.accessToken).code == "SESSION_REVOKED")
        #expect(try server.call("GET", "/readyz").status == 200)
    }

    @Test func migrateAppliesEveryMigrationThenHasNothingToDo() throws {
        let database = try TestDatabase()
        defer { database.drop() }
        for _ in 0..<2 {
            let migrate = try LatchkeyProcess(arguments: ["migrate", "--database", database.url])
            #expect(migrate.waitForExit() == 0, "\(migrate.output)")
            #expect(migrate.output.contains("database is up to date"))
            #expect(!migrate.output.contains(try #require(Self.password(of: database.url))))
        }
        let applied = try Connection(url: database.url).queryOne("SELECT count(*), max(version) FROM schema_migrations") {
            ($0.int(at: 0), $0.int(at: 1))
        }
        let files = try FileManager.default.contentsOfDirectory(
            atPath: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("migrations/postgres").path
        ).filter { $0.hasSuffix(".sql") }
        #expect(applied?.0 == files.count && applied?.1 == files.count, "every file of migrations/postgres, numbered from 1")
    }

    /// A value that is neither `sqlite` nor a PostgreSQL URL is a bad setting (exit 2),
    /// named, and never echoed: it may hold a password.
    @Test(arguments: ["mysql://root:hunter2@db.example.com/latchkey", "postgres://root:hunter2@db example/x", "sqlite3"])
    func aBadDatabaseValueIsRefusedWithoutItsPassword(_ value: String) throws {
        for (arguments, environment, source) in [
            (["serve", "--database", value], [String: String](), "--database"),
            (["serve"], ["LATCHKEY_DATABASE": value], "LATCHKEY_DATABASE"),
        ] {
            let process = try LatchkeyProcess(arguments: arguments, environment: environment)
            #expect(process.waitForExit() == 2)
            let output = process.output.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(output == "latchkey: invalid value for \(source): expected sqlite, or a postgres://user:password@host:port/database URL")
            #expect(!output.contains("hunter2"))
        }
    }

    /// A server that cannot be reached fails the start (exit 1) with libpq's reason, and
    /// the URL shown without its password.
    @Test func anUnreachableServerFailsTheStartWithoutThePassword() throws {
        let process = try LatchkeyProcess(arguments: ["serve", "--port", "0", "--database", "postgres://latchkey:hunter2@127.0.0.1:1/latchkey"])
        #expect(process.waitForExit() == 1)
        #expect(process.output.contains("latchkey: database failure: PostgreSQL at postgres://latchkey@127.0.0.1:1/latchkey"))
        #expect(!process.output.contains("hunter2"))
    }

    @Test func backupSaysToUsePgDump() throws {
        let database = try TestDatabase()
        defer { database.drop() }
        let backup = try LatchkeyProcess(arguments: ["backup", LatchkeyProcess.makeTemporaryDirectory() + "/copy", "--database", database.url])
        #expect(backup.waitForExit() == 2)
        #expect(backup.output.contains("pg_dump"))
    }

    /// The password of a `scheme://user:password@host/…` URL.
    static func password(of url: String) -> String? {
        guard let authority = url.split(separator: "/").dropFirst().first, let at = authority.lastIndex(of: "@"),
              let colon = authority[..<at].firstIndex(of: ":") else { return nil }
        return String(authority[authority.index(after: colon)..<at])
    }
}
