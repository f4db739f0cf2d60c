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

        /// One shared chunk to many streams: each gets every chunk once, after what it was
        /// written before (its hello, queued before it answered on a connection), framed
        /// for its version.
        @Test func aBroadcastReachesEveryStreamInOrderAfterWhatItHeldBefore() async throws {
            try await withTestServer { server in
                var clients: [RawClient] = []
                for _ in 0..<12 {
                    let client = try await server.connect()
                    try await client.send("GET /watch HTTP/1.1\r\nHost: a\r\n\r\n")
                    clients.append(client)
                }
                let old = try await server.connect()
                try await old.send("GET /watch HTTP/1.0\r\n\r\n")
                #expect(await eventually { server.probe.watchStreams.count == 13 })
                for text in ["a", "bb", "ccc"] { ResponseStream.broadcast(SharedChunk(Array(text.utf8)), to: server.probe.watchStreams) }
                for stream in server.probe.watchStreams { stream.finish() }
                for client in clients {
                    let response = try await client.readResponse()
                    #expect(response.chunks?.map { String(decoding: $0, as: UTF8.self) } == ["hello", "a", "bb", "ccc"])
                }
                let unchunked = try await old.readResponse()
                #expect(unchunked.header("Transfer-Encoding") == nil)
                #expect(unchunked.text == "helloabbccc")
            }
        }

        /// A broadcast holds no more for a reader that never reads than a stream's own
        /// writes do: past the high-water mark the connection is dropped.
        @Test func aReaderThatNeverReadsIsDroppedFromABroadcastAtTheHighWaterMark() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send("GET /watch HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(await eventually { server.probe.watchStreams.count == 1 })
                let chunk = SharedChunk([UInt8](repeating: UInt8(ascii: "x"), count: 16 * 1024))
                var broadcasts = 0
                // 16 MiB at most: far past the socket buffers and the 64 KiB mark.
                while server.probe.watchStreamsClosed == 0, broadcasts < 1024 {
                    ResponseStream.broadcast(chunk, to: server.probe.watchStreams)
                    broadcasts += 1
                    try await Task.sleep(for: .milliseconds(1))
                }
                #expect(await eventually { server.probe.watchStreamsClosed == 1 })
                #expect(broadcasts < 1024, "dropped after \(broadcasts) broadcasts of 16 KiB")
                #expect(try await client.waitForClose())
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
