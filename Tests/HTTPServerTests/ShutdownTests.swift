import Glibc
import Testing
@testable import HTTPServer

extension ServerOverSockets {
    @Suite struct Shutdown {
        /// One loop: once its answer says `Connection: close`, the only listener is gone.
        @Test func inFlightRequestIsAnsweredAndNewConnectionsAreRefused() async throws {
            let server = try TestServer.start { $0.eventLoops = 1 }
            let port = server.port
            let client = try await server.connect()
            try await client.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
            #expect(await eventually { server.probe.slowRequestsStarted == 1 })

            async let stopped: Void = server.stop()
            let response = try await client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "slow")
            #expect(response.header("Connection") == "close")
            await #expect(throws: ClientError.connectFailed(errno: ECONNREFUSED), "while draining") {
                _ = try await RawClient.connect(port: port)
            }
            #expect(try await client.waitForClose())
            client.close()
            await stopped

            await #expect(throws: ClientError.connectFailed(errno: ECONNREFUSED), "after shutdown") {
                _ = try await RawClient.connect(port: port)
            }
        }

        @Test func idleConnectionsAreClosedAtShutdown() async throws {
            let server = try TestServer.start()
            let client = try await server.connect()
            #expect(try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n").status == 200)
            await server.stop()
            #expect(try await client.waitForClose())
        }
    }
}
