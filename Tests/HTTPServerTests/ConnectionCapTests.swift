import Testing
@testable import HTTPServer

extension ServerOverSockets {
    @Suite struct ConnectionCap {
        @Test func connectionOverTheCapGets503AndCloseThenAFreedSlotIsServed() async throws {
            try await withTestServer({ $0.maxConnections = 3 }) { server in
                var held: [RawClient] = []
                for _ in 0..<3 {
                    let client = try await server.connect()
                    // A served request proves the server accepted and counted the connection.
                    let response = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                    #expect(response.status == 200)
                    held.append(client)
                }

                let refused = try await server.connect()
                let answer = try await refused.readResponse()
                #expect(answer.status == 503)
                #expect(answer.isProblem)
                #expect(answer.header("Retry-After") == "1")
                #expect(answer.header("Connection") == "close")
                #expect(try await refused.waitForClose())

                held.removeFirst().close()
                #expect(await eventually { server.server.openConnections < 3 })
                let later = try await server.connect()
                let served = try await later.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(served.status == 200)
                for client in held {
                    #expect(try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n").status == 200)
                }
            }
        }

        /// One client cannot hold every slot: past `maxConnectionsPerAddress` its new
        /// connections are refused like those over the global cap.
        @Test func connectionsOverThePerAddressCapGet503() async throws {
            try await withTestServer({ $0.maxConnectionsPerAddress = 2 }) { server in
                var held: [RawClient] = []
                for _ in 0..<2 {
                    let client = try await server.connect()
                    #expect(try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n").status == 200)
                    held.append(client)
                }
                let refused = try await server.connect()
                let answer = try await refused.readResponse()
                #expect(answer.status == 503)
                #expect(answer.header("Retry-After") == "1")
                #expect(try await refused.waitForClose())

                held.removeFirst().close()
                #expect(await eventually { server.server.openConnections < 2 })
                let later = try await server.connect()
                #expect(try await later.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n").status == 200)
            }
        }

        @Test func anUncappedAddressIsNotLimitedPerAddress() async throws {
            try await withTestServer({ $0.maxConnectionsPerAddress = 1; $0.uncappedAddresses = ["127.0.0.1"] }) { server in
                var held: [RawClient] = []
                for _ in 0..<3 {
                    let client = try await server.connect()
                    #expect(try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n").status == 200)
                    held.append(client)
                }
            }
        }
    }
}
