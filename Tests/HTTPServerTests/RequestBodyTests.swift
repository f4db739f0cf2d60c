import Testing
@testable import HTTPServer

extension ServerOverSockets {
    @Suite struct RequestBodies {
        @Test func echoesAContentLengthBody() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello world")
                #expect(response.status == 200)
                #expect(response.text == "hello world")
            }
        }

        @Test func echoesAChunkedBodyAndKeepsTheConnection() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange(
                    "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
                    + "5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n"
                )
                #expect(response.status == 200)
                #expect(response.text == "hello world")
                let next = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(next.text == "hello")
            }
        }

        @Test func expectContinueGets100BeforeTheBodyThenTheResponse() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
                let interim = try await client.readResponse()
                #expect(interim.status == 100)
                try await client.send("hello")
                let final = try await client.readResponse()
                #expect(final.status == 200)
                #expect(final.text == "hello")
            }
        }

        @Test func expectContinueWithAnOversizeBodyGets413AtOnceWithout100() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
                let response = try await client.readResponse()
                #expect(response.status == 413)
                #expect(response.isProblem)
                #expect(try await client.waitForClose())
            }
        }

        /// A route with a receiver never holds the body whole: it gets it in pieces no
        /// larger than one read, whichever framing the client chose.
        @Test(arguments: [false, true])
        func aReceiverTakesTheBodyInPieces(chunked: Bool) async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let body = String(repeating: "abcdefgh", count: 64 * 1024)  // 512 KiB
                let framed = chunked
                    ? "Transfer-Encoding: chunked\r\n\r\n" + String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
                    : "Content-Length: \(body.utf8.count)\r\n\r\n" + body
                let response = try await client.exchange("POST /pieces HTTP/1.1\r\nHost: a\r\n" + framed)
                #expect(response.status == 200)
                let fields = response.text.split(separator: " ")
                #expect(fields.first == "bytes=524288")
                let largest = try #require(Int(fields[1].dropFirst("largest=".count)))
                #expect(largest > 0 && largest <= 64 * 1024, "one read at most, not the whole body")
                #expect(fields.last == "finished=true")
                let next = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(next.text == "hello", "the connection goes on after a received body")
            }
        }

        /// The route's limit holds for a chunked body handed on in pieces, which the
        /// decoder never holds whole.
        @Test func aChunkedBodyHandedOnIsStillLimited() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let piece = String(repeating: "x", count: 60 * 1024)
                try await client.send("POST /pieces HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n")
                for _ in 0..<17 {  // 1020 KiB, under the limit
                    try await client.send(String(piece.utf8.count, radix: 16) + "\r\n" + piece + "\r\n")
                }
                try await client.send("2000\r\n" + String(repeating: "y", count: 8192) + "\r\n0\r\n\r\n")  // past 1 MiB
                let response = try await client.readResponse()
                #expect(response.status == 413)
                #expect(try await client.waitForClose())
            }
        }

        @Test func aReceiverThatRefusesAPieceEndsTheRequestWithItsError() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("POST /pieces HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nrefused!")
                #expect(response.status == 500)
                #expect(response.isProblem)
                #expect(!response.text.contains(SecretFailure.secret))
                #expect(try await client.waitForClose(), "the rest of the body is not read")
            }
        }

        @Test func unsupportedExpectationGets417() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\nExpect: something-else\r\n\r\n")
                #expect(response.status == 417)
            }
        }

        @Test func contentLengthOverTheRouteLimitGets413BeforeTheBodyIsSent() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1025\r\n\r\n")
                #expect(response.status == 413)
                #expect(response.header("Connection") == "close")
                #expect(try await client.waitForClose())
            }
        }

        @Test func contentLengthExactlyAtTheRouteLimitIsAccepted() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let body = String(repeating: "b", count: 1024)
                let response = try await client.exchange("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 1024\r\n\r\n" + body)
                #expect(response.status == 200)
                #expect(response.body.count == 1024)
            }
        }

        @Test func chunkedBodyOverTheRouteLimitGets413() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange(
                    "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n200\r\n" + String(repeating: "x", count: 512)
                    + "\r\n201\r\n"
                )
                #expect(response.status == 413)
                #expect(try await client.waitForClose())
            }
        }
    }
}
