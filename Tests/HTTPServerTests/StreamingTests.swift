import Testing
@testable import HTTPServer

extension ServerOverSockets {
    @Suite struct Streaming {
        @Test func streamArrivesChunkedAndTheConnectionGoesOn() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /stream HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(response.status == 200)
                #expect(response.header("Transfer-Encoding") == "chunked")
                #expect(response.header("Content-Length") == nil)
                #expect(response.chunks?.map { String(decoding: $0, as: UTF8.self) } == TestRoutes.streamedChunks)
                let next = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(next.text == "hello")
            }
        }

        @Test func headOfAStreamHasNoBody() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let head = try await client.exchange("HEAD /stream HTTP/1.1\r\nHost: a\r\n\r\n", bodyless: true)
                #expect(head.status == 200)
                let next = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(next.text == "hello")
            }
        }

        /// A reader that never reads is dropped once its socket is full and the stream's
        /// high-water mark is passed: the producer is refused long before its 64 MiB.
        @Test func aReaderThatNeverReadsIsDroppedAtTheHighWaterMark() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send("GET /flood HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(await eventually { server.probe.floodAcceptedBytes >= 0 })
                let accepted = server.probe.floodAcceptedBytes
                #expect(accepted > 0 && accepted < 32 << 20, "refused after \(accepted) bytes: the socket buffers and 64 KiB, not the whole flood")
            }
        }

        @Test func clientClosingAnUnfinishedStreamFiresOnClose() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send("GET /unfinished HTTP/1.1\r\nHost: a\r\n\r\n")
                let head = try await client.readResponseHead()
                #expect(head.status == 200)
                #expect(head.header("Transfer-Encoding") == "chunked")
                #expect(!server.probe.unfinishedStreamClosed)
                client.close()
                #expect(await eventually { server.probe.unfinishedStreamClosed })
            }
        }

        @Test func streamedRequestPipelinedBehindAStreamIsAnsweredAfterIt() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send("GET /stream HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                let stream = try await client.readResponse()
                let next = try await client.readResponse()
                #expect(stream.chunks?.count == TestRoutes.streamedChunks.count)
                #expect(next.text == "hello")
            }
        }

        /// HTTP/1.0 has no chunked coding (RFC 9112 §7.1): the body ends when the connection does.
        @Test func http10ClientGetsAStreamWithoutChunkedCodingEndedByClose() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /stream HTTP/1.0\r\n\r\n")
                #expect(response.status == 200)
                #expect(response.header("Transfer-Encoding") == nil)
                #expect(response.header("Connection") == "close")
                #expect(response.text == TestRoutes.streamedChunks.joined())
            }
        }
    }
}
