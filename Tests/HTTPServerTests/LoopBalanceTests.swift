import Testing
@testable import HTTPServer

extension ServerOverSockets {
    @Suite struct LoopBalance {
        /// A pool of keep-alive connections opened together (a proxy's, a load test's) is
        /// served by both loops in equal shares, not by whichever loop woke first; each
        /// answer's `X-Request-Id` names its loop (`…-LOOP-n`).
        @Test func connectionsOpenedTogetherAreSharedByTheLoops() async throws {
            try await withTestServer({ $0.eventLoops = 2 }) { server in
                var clients: [RawClient] = []
                for _ in 0..<64 { clients.append(try await server.connect()) }
                var servedBy: [String: Int] = [:]
                for client in clients {
                    let response = try await client.exchange("GET /hello HTTP/1.1\r\nHost: pool\r\n\r\n")
                    #expect(response.status == 200)
                    let parts = try #require(response.header("X-Request-Id")).split(separator: "-")
                    try #require(parts.count == 3)
                    servedBy[String(parts[1]), default: 0] += 1
                }
                // Two loops accepting at once may both pick the same one: one off either way.
                #expect((31...33).contains(servedBy["0", default: 0]) && (31...33).contains(servedBy["1", default: 0]), "connections per loop: \(servedBy)")
                clients.forEach { $0.close() }
            }
        }
    }
}
