import Testing
@testable import HTTPServer

extension ServerOverSockets {
    @Suite struct MalformedRequests {
        /// Sends `request`, expects `status` as problem+json, then the server closing the connection.
        static func expectRefusal(_ request: String, status: Int) async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange(request)
                #expect(response.status == status)
                #expect(response.isProblem)
                #expect(response.header("Connection") == "close")
                #expect(response.carriesEngineFields)
                #expect(try await client.waitForClose())
            }
        }

        @Test(arguments: [RawRequestCase]([
            ("Content-Length with Transfer-Encoding",
             "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"),
            ("differing Content-Length", "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello!"),
            ("obs-fold", "GET /hello HTTP/1.1\r\nHost: a\r\nX-Folded: one\r\n two\r\n\r\n"),
            ("space before the colon", "GET /hello HTTP/1.1\r\nHost : a\r\n\r\n"),
            ("NUL", "GET /hello HTTP/1.1\r\nHost: a\r\nX-Nul: a\u{0}b\r\n\r\n"),
            ("bare CR", "GET /hello HTTP/1.1\r\nHost: a\r\nX-Cr: a\rb\r\n\r\n"),
            ("bare LF", "GET /hello HTTP/1.1\nHost: a\n\n"),
            ("missing Host", "GET /hello HTTP/1.1\r\n\r\n"),
            ("malformed chunk size", "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
        ].map(RawRequestCase.init)))
        func framingOrSyntaxErrorGets400AndClose(_ row: RawRequestCase) async throws {
            try await Self.expectRefusal(row.request, status: 400)
        }

        @Test func requestLineOverTheLimitGets414() async throws {
            try await Self.expectRefusal("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n", status: 414)
        }

        @Test func headerSectionOverTheLimitGets431() async throws {
            try await Self.expectRefusal("GET /hello HTTP/1.1\r\nHost: a\r\nX-Big: " + String(repeating: "b", count: 33 * 1024) + "\r\n\r\n", status: 431)
        }

        @Test func moreThanTheMaximumNumberOfFieldsGets431() async throws {
            let fields = (1...101).map { "X-Field-\($0): v\r\n" }.joined()
            try await Self.expectRefusal("GET /hello HTTP/1.1\r\nHost: a\r\n" + fields + "\r\n", status: 431)
        }

        @Test func exactlyTheMaximumNumberOfFieldsIsServed() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let fields = (1...99).map { "X-Field-\($0): v\r\n" }.joined()
                let response = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n" + fields + "\r\n")
                #expect(response.status == 200)
            }
        }

        @Test func unsupportedTransferCodingGets501() async throws {
            try await Self.expectRefusal("POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", status: 501)
        }

        @Test func http2RequestLineGets505() async throws {
            try await Self.expectRefusal("GET /hello HTTP/2.0\r\nHost: a\r\n\r\n", status: 505)
        }
    }
}
