import Foundation
import Glibc
import Testing
import TestSupport

/// `latchkey serve` as a person runs it: no configuration, any directory; so port 8080 and
/// SQLite in `./data`.
@Suite(.serialized) struct ServeDefaultsTests {
    @Test func startsWithNoConfigurationOnPort8080WithDataInTheWorkingDirectory() throws {
        let workingDirectory = LatchkeyProcess.makeTemporaryDirectory()
        let server = try LatchkeyProcess(arguments: [], dataDirectory: workingDirectory + "/data", currentDirectory: workingDirectory)
        defer { server.terminate() }
        #expect(try server.waitUntilListening() == 8080, "is another program using port 8080?")
        #expect(server.output.contains("listening on http://127.0.0.1:8080"))

        let response = try RawConnection(port: 8080).request("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(response.status == 200)
        #expect(response.text == #"{"status":"ok"}"#)

        var status = stat()
        #expect(stat(workingDirectory + "/data/signing-key", &status) == 0)
        #expect(status.st_mode & 0o777 == 0o600)
        #expect(FileManager.default.fileExists(atPath: workingDirectory + "/data/latchkey.sqlite"))
    }

    /// libpq and what it pulls in (gnutls, krb5, ldap: about 3 MB resident) are loaded only
    /// for a PostgreSQL database; PostgreSQLServeTests checks the other side.
    @Test func aServerOverSQLiteDoesNotLoadLibpq() throws {
        let server = try LatchkeyProcess()
        defer { server.terminate() }
        try server.waitUntilListening()
        let maps = try server.memoryMap()
        #expect(maps.contains("libsqlite3"), "the maps are the server's")
        #expect(!maps.contains("libpq.so"))
    }
}

/// `latchkey serve` on a data directory of its own, over either database.
@Suite struct ServeTests {
    /// `top -H` and `perf` tell the server's parts apart by these names.
    @Test func theServersThreadsAreNamedForWhatTheyDo() throws {
        let server = try LatchkeyProcess(environment: ["LATCHKEY_EVENT_LOOPS": "2"])
        defer { server.terminate() }
        _ = try server.waitUntilListening()
        let names = try server.threadNames()
        // SQLite's writer hands its commits to `db-flush`; PostgreSQL flushes its own.
        let database = DatabaseUnderTest.isPostgreSQL ? [] : ["db-flush", "wal-checkpoint"]
        for name in ["http-loop-0", "http-loop-1", "db-writer", "hashing-0", "mail-outbox"] + database {
            #expect(names.contains(name), "\(name) in \(names)")
        }
    }

    @Test func healthAndReadinessAnswerWithTheCommonHeaders() throws {
        let server = try LatchkeyProcess()
        defer { server.terminate() }
        let port = try server.waitUntilListening()
        let connection = try RawConnection(port: port)
        for path in ["/healthz", "/readyz"] {
            let response = try connection.request("GET \(path) HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: probe-42\r\n\r\n")
            #expect(response.status == 200)
            #expect(response.text == #"{"status":"ok"}"#)
            #expect(response.header("X-Request-Id") == "probe-42")
            #expect(response.header("X-Content-Type-Options") == "nosniff")
            #expect(response.header("Content-Type") == "application/json; charset=utf-8")
        }
    }

    @Test func restartKeepsTheSigningKeyAndTheDatabase() throws {
        let dataDirectory = LatchkeyProcess.makeTemporaryDirectory() + "/data"
        let first = try LatchkeyProcess(dataDirectory: dataDirectory)
        try first.waitUntilListening()
        let key = try String(contentsOfFile: dataDirectory + "/signing-key", encoding: .utf8)
        first.terminate()
        #expect(first.waitForExit() == 0)

        let second = try LatchkeyProcess(dataDirectory: dataDirectory)
        defer { second.terminate() }
        let port = try second.waitUntilListening()
        #expect(try String(contentsOfFile: dataDirectory + "/signing-key", encoding: .utf8) == key)
        #expect(try RawConnection(port: port).request("GET /readyz HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)
    }
}

extension RawConnection {
    func request(_ text: String) throws -> RawResponse {
        try send(text)
        return try readResponse()
    }
}

/// Flags > environment > config file > defaults, seen through the public URL the server logs.
@Suite struct ConfigurationPrecedenceTests {
    private func loggedPublicURL(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
        let server = try LatchkeyProcess(arguments: ["serve", "--port", "0"] + arguments, environment: environment)
        defer { server.terminate() }
        try server.waitUntilListening()
        let range = try #require(server.output.range(of: #"publicURL=\S+"#, options: .regularExpression))
        return String(server.output[range].dropFirst("publicURL=".count))
    }

    @Test func flagBeatsEnvironmentBeatsFileBeatsDefault() throws {
        let file = LatchkeyProcess.makeTemporaryDirectory() + "/latchkey.json"
        try #"{"publicURL": "https://file.example"}"#.write(toFile: file, atomically: true, encoding: .utf8)
        let environment = ["LATCHKEY_PUBLIC_URL": "https://env.example"]
        #expect(try loggedPublicURL(["--config", file, "--public-url", "https://flag.example"], environment: environment) == "https://flag.example")
        #expect(try loggedPublicURL(["--config", file], environment: environment) == "https://env.example")
        #expect(try loggedPublicURL(["--config", file]) == "https://file.example")
        #expect(try loggedPublicURL([]).hasPrefix("http://127.0.0.1:"))
    }

    @Test func theExampleConfigFileIsValid() throws {
        let example = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("config/latchkey.example.json").path
        let server = try LatchkeyProcess(arguments: ["serve", "--config", example, "--port", "0"])
        defer { server.terminate() }
        #expect(try server.waitUntilListening() > 0)
    }

    /// README's settings table, the example config file and `latchkey --help` (made from
    /// the settings catalog) name the same settings, and where the README gives a plain
    /// default the example file holds that very value.
    @Test func theREADMETableTheExampleFileAndTheCatalogAgree() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let table = try #require(readme.components(separatedBy: "| key | environment | default | meaning |").dropFirst().first)
        var rows: [String: (environment: String, defaultValue: String)] = [:]
        for line in table.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2) {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            rows[cells[1]] = (cells[2].trimmingCharacters(in: CharacterSet(charactersIn: "`")), cells[3])
        }
        let example = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: root.appendingPathComponent("config/latchkey.example.json"))) as? [String: Any])
        let exampleKeys = Set(example.keys.filter { !$0.hasPrefix("//") })
        #expect(Set(rows.keys) == exampleKeys, "README rows vs example keys: \(Set(rows.keys).symmetricDifference(exampleKeys).sorted())")

        let help = try LatchkeyProcess(arguments: ["--help"])
        _ = help.waitForExit()
        let helpEnvironment = Set(help.output.matches(of: /LATCHKEY_[A-Z_]+/).map { String($0.output) }).subtracting(["LATCHKEY_CONFIG"])
        #expect(Set(rows.values.map(\.environment)) == helpEnvironment, "README vs the catalog: \(Set(rows.values.map(\.environment)).symmetricDifference(helpEnvironment).sorted())")

        for (key, row) in rows.sorted(by: { $0.key < $1.key }) {
            // null in the example: a default computed at start (publicURL from host and port).
            guard let match = row.defaultValue.wholeMatch(of: /`([^`]+)`/), let value = example[key], !(value is NSNull) else { continue }
            let shown = (value as? String) ?? (value as? Bool).map { $0 ? "true" : "false" } ?? (value as? NSNumber).map { "\($0)" } ?? "?"
            #expect(shown == String(match.output.1), "\(key): README says \(row.defaultValue), the example file \(shown)")
        }
    }
}
