import Glibc
import Testing
@testable import HTTPServer

extension ServerOverSockets {
    @Suite struct Fairness {
        /// One loop, so both clients share it: a slowloris must not hold it.
        @Test func tricklingClientDoesNotDelayAnotherClient() async throws {
            try await withTestServer({ $0.eventLoops = 1 }) { server in
                let request = Array("GET /hello HTTP/1.1\r\nHost: trickle\r\nX-Padding: 0123456789012345\r\n\r\n".utf8)
                let trickleTime = Duration.milliseconds(50) * request.count
                let sent = SharedCounter()
                let trickler = try await server.connect()
                async let trickled: RawResponse = {
                    try await OwnThread.run {
                        for byte in request {
                            try trickler.sendNow([byte])
                            sent.increment()
                            usleep(50_000)
                        }
                    }
                    return try await trickler.readResponse()
                }()
                #expect(await eventually { sent.value >= 3 })

                let start = ContinuousClock.now
                let other = try await server.connect()
                let response = try await other.exchange("GET /hello HTTP/1.1\r\nHost: other\r\n\r\n")
                let elapsed = ContinuousClock.now - start
                #expect(response.status == 200)
                #expect(sent.value < request.count, "the trickle was over before the other request")
                #expect(elapsed < trickleTime / 2, "took \(elapsed) beside a trickle of \(trickleTime)")

                let slow = try await trickled
                #expect(slow.status == 200)
                #expect(slow.text == "hello")
            }
        }
    }
}
