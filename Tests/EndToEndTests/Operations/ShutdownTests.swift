import Foundation
import Glibc
import Testing
import TestSupport

/// SIGTERM: stop accepting, finish what is in flight, checkpoint, exit 0.
@Suite struct ShutdownTests {
    @Test func sigtermFinishesAnInFlightRequestThenExitsZero() throws {
        let server = try LatchkeyProcess()
        let port = try server.waitUntilListening()
        let inFlight = try RawConnection(port: port)
        // The body is still arriving when the signal comes: the request is in flight.
        try inFlight.send("GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 6\r\n\r\nabc")
        usleep(200_000)
        server.terminate()
        usleep(300_000)

        #expect(throws: (any Error).self, "a new connection after SIGTERM must be refused") {
            try RawConnection(port: port).request("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        }
        try inFlight.send("def")
        let response = try inFlight.readResponse()
        #expect(response.status == 200)
        #expect(response.header("Connection") == "close")

        #expect(server.waitForExit() == 0)
        #expect(server.output.contains("stopped"))
    }

    @Test func sigtermWithIdleConnectionsExitsPromptly() throws {
        let server = try LatchkeyProcess()
        let port = try server.waitUntilListening()
        let idle = try (0..<20).map { _ in try RawConnection(port: port) }
        let started = Date()
        server.terminate()
        #expect(server.waitForExit() == 0)
        #expect(Date().timeIntervalSince(started) < 5, "idle keep-alive connections do not hold up shutdown")
        #expect(idle.allSatisfy { $0.closesConnection() })
    }
}

/// SIGTERM over SQLite: the write-ahead log is folded into the database file on the way
/// out, so the file alone is the whole database (a copy of it, a look with sqlite3).
@Suite struct SQLiteShutdownTests {
    @Test func sigtermCheckpointsTheWAL() throws {
        let server = try LatchkeyProcess(arguments: ["serve", "--port", "0", "--password-iterations", "1000"])
        let port = try server.waitUntilListening()
        // A write, so the WAL has something to fold in.
        let signup = #"{"email":"ada@example.com","password":"lighthouse-Quokka-42","displayName":"ada"}"#
        let response = try RawConnection(port: port).request(
            "POST /v1/auth/signup HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(signup.utf8.count)\r\n\r\n\(signup)")
        #expect(response.status == 201)
        let walPath = server.dataDirectory + "/latchkey.sqlite-wal"
        #expect(((try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int) ?? 0) > 0, "the signup is in the WAL")
        server.terminate()
        #expect(server.waitForExit() == 0)
        let walSize = (try? FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int) ?? 0
        #expect(walSize == 0, "the WAL is checkpointed on the way out")
    }
}
