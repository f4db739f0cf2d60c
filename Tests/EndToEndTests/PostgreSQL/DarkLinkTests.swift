import Foundation
import Testing
import TestSupport

/// An instance answers bearer checks from its copy of sessions only while it can hear
/// the account events of the others (PostgreSQL's NOTIFY). A link that goes dark (no
/// reset, no answer: a partition, a stuck middlebox) used to look like a quiet channel
/// for ever, and the instance went on honouring sessions revoked elsewhere.
@Suite struct DarkLinkTests {
    /// Answered 200 from B's copy, or how B answers once it has stopped trusting it.
    private enum Outcome: Equatable {
        case served
        case unavailable
        case noAnswerWithinTwoSeconds
        case other(Int)
    }

    @Test func anInstanceCutOffFromTheDatabaseStopsHonouringASessionRevokedElsewhere() throws {
        let database = try TestDatabase()
        defer { database.drop() }
        let scratch = LatchkeyProcess.makeTemporaryDirectory()
        let darkFile = scratch + "/dark"
        let link = try PythonServer(
            script: "blackhole_proxy.py", arguments: ["--target-port", String(try Self.port(of: database.url)), "--freeze-file", darkFile]
        )
        let a = try AccountServer(["--database", database.url])
        defer { a.stop() }
        // B reaches PostgreSQL through the link that will go dark; A directly.
        let b = try AccountServer(
            ["--database", try Self.url(database.url, throughPort: link.port)], dataDirectory: a.dataDirectory, signingKey: a.signingKey
        )
        defer { b.stop() }
        // First of all at the end: the link's sockets close, so B can stop without waiting on them.
        defer { link.stop() }

        // Ada signs in through A. Mallory holds a copy of her access token and uses it
        // through B, which now keeps her session in memory.
        let ada = try a.signUp("ada@example.com", "Ada.L")
        #expect(Self.outcome(of: b, token: ada.accessToken) == .served)

        // The link between B and PostgreSQL goes dark.
        #expect(FileManager.default.createFile(atPath: darkFile, contents: nil))

        // Ada notices and signs out everywhere, through A.
        #expect(try a.call("POST", "/v1/auth/logout-all", token: ada.accessToken).status == 204)

        // B cannot hear it. Within a few seconds (a ping a second, answered within 3 s) it
        // must stop answering from its copy: it then has to ask PostgreSQL, which it cannot
        // reach, so Mallory gets a 503 or no answer, never Ada's profile.
        let darkSince = Date()
        var outcome = Outcome.served
        for _ in 0..<60 where outcome == .served {
            outcome = Self.outcome(of: b, token: ada.accessToken)
            if outcome == .served { usleep(250_000) }
        }
        let seconds = Date().timeIntervalSince(darkSince)
        #expect(outcome == .unavailable || outcome == .noAnswerWithinTwoSeconds, "B answered \(outcome) for \(Int(seconds)) s after its link went dark")
        #expect(seconds < 10, "B stopped serving from its copy \(Int(seconds)) s after its link went dark")
    }

    private static func outcome(of server: AccountServer, token: String) -> Outcome {
        guard let response = try? call(port: server.port, "GET", "/v1/users/me", token: token, timeout: 2) else {
            return .noAnswerWithinTwoSeconds
        }
        switch response.status {
        case 200: return .served
        case 503: return .unavailable
        default: return .other(response.status)
        }
    }

    /// The port of `postgres://user:pass@host:PORT/db?query`.
    static func port(of url: String) throws -> Int {
        guard let components = URLComponents(string: url), let port = components.port else { throw TestError("no port in the test cluster's URL") }
        return port
    }

    /// `url` with 127.0.0.1:`port` as its host and port.
    static func url(_ url: String, throughPort port: Int) throws -> String {
        guard var components = URLComponents(string: url) else { throw TestError("the test cluster's URL does not parse") }
        components.host = "127.0.0.1"
        components.port = port
        guard let rewritten = components.string else { throw TestError("cannot rewrite the test cluster's URL") }
        return rewritten
    }
}
