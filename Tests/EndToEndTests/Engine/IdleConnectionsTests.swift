import Foundation
import Glibc
import Testing
import TestSupport

/// Long-lived idle connections cost a descriptor and a few bytes, never a thread, so
/// ten thousand of them do not keep a new client waiting.
@Suite struct IdleConnectionsTests {
    @Test func tenThousandIdleConnectionsDoNotBlockANewClient() throws {
        var limit = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit)
        #expect(limit.rlim_cur > 10_200, "this machine allows too few open files for the test")

        let server = try LatchkeyProcess(arguments: ["serve", "--port", "0", "--max-connections", "10100", "--max-connections-per-address", "10100"])
        defer { server.terminate() }
        let port = try server.waitUntilListening()
        var idle: [RawConnection] = []
        idle.reserveCapacity(10_000)
        for _ in 0..<10_000 { idle.append(try RawConnection(port: port)) }
        // A few of them have been served once and are now idle keep-alive connections.
        for connection in idle.prefix(100) {
            #expect(try connection.request("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)
        }

        let started = Date()
        let response = try RawConnection(port: port, timeout: 5).request("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        let waited = Date().timeIntervalSince(started)
        #expect(response.status == 200)
        #expect(waited < 1.0, "a new client waited \(waited) s behind 10,000 idle connections")
        #expect(try idle.last!.request("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").status == 200)
    }
}
