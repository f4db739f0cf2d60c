import Glibc
import Testing
@testable import HTTPServer

extension ServerOverSockets {
    /// Memory per connection is bounded in every phase: a peer that pipelines requests and
    /// never reads the answers stops being read once its queued output passes the
    /// high-water mark, so the kernel's buffers fill and its own sends block.
    @Suite struct Backpressure {
        @Test func aClientThatSendsWithoutEverReadingIsStoppedByTheKernelsBuffers() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let request = Array("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
                let batch = Array((0..<1_000).map { _ in request }.joined())
                // Without back-pressure the server reads all of it (and queues every answer):
                // 256 MiB go through in a few seconds. With it, the socket buffers on both
                // sides (a few MiB on loopback) plus the server's high-water mark take it all.
                let accepted = client.sendWithoutBlocking(batch, upTo: 256 << 20, within: .seconds(10))
                #expect(accepted < 48 << 20, "the server kept reading: \(accepted) bytes accepted")
                // The connection still works: what was sent is answered in order once read.
                let first = try await client.readResponse()
                #expect(first.status == 200)
                #expect(first.text == "hello")
            }
        }
    }
}
