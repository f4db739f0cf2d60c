import Testing
@testable import HTTPServer

extension ServerOverSockets {
    @Suite struct ProblemResponses {
        @Test func unknownPathGets404ProblemAndKeepsTheConnection() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /nope HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(response.status == 404)
                #expect(response.isProblem)
                #expect(response.text == #"{"type":"about:blank","status":404,"title":"Not Found","detail":"There is nothing at this path."}"#)
                #expect(response.header("Cache-Control") == "no-store")
                let next = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(next.status == 200)
            }
        }

        @Test func wrongMethodGets405ProblemWithAllow() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let onHello = try await client.exchange("DELETE /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(onHello.status == 405)
                #expect(onHello.isProblem)
                #expect(onHello.header("Allow") == "GET, HEAD, OPTIONS")
                let onEcho = try await client.exchange("GET /echo HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(onEcho.status == 405)
                #expect(onEcho.header("Allow") == "POST, OPTIONS")
            }
        }

        /// Browsers send OPTIONS before a cross-origin call: a known path answers what it
        /// allows instead of 405.
        @Test func optionsOnAKnownPathIs204WithAllowAndTheConnectionStaysOpen() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let options = try await client.exchange("OPTIONS /hello HTTP/1.1\r\nHost: a\r\n\r\n", bodyless: true)
                #expect(options.status == 204)
                #expect(options.header("Allow") == "GET, HEAD, OPTIONS")
                #expect(try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n").text == "hello")
                let unknown = try await client.exchange("OPTIONS /nope HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(unknown.status == 404)
            }
        }

        @Test func throwingHandlerGets500InternalWithoutTheErrorText() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send("GET /fail HTTP/1.1\r\nHost: a\r\n\r\n")
                let response = try await client.readResponse()
                #expect(response.status == 500)
                #expect(response.isProblem)
                #expect(response.text.contains("\"title\":\"Internal Server Error\""))
                #expect(response.header("Cache-Control") == "no-store")
                #expect(!response.text.contains(SecretFailure.secret))
                #expect(!response.fields.contains { $0.value.contains(SecretFailure.secret) })
                let next = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(next.status == 200)
            }
        }
    }

    /// An application renders the engine's failures itself (Latchkey adds its `code`):
    /// every one goes through its `problemResponder`, and the engine adds only the
    /// protocol's fields.
    @Suite struct ApplicationRenderedProblems {
        @Sendable static func render(_ problem: Problem) -> Response {
            Response(status: problem.status, headers: [HTTPField(name: "X-Rendered", value: "app")], body: Array("rendered \(problem)".utf8))
        }

        /// One request for each way the engine fails, the 500 of a throwing handler among them.
        static let failures = [
            RawRequestCase("404", "GET /nope HTTP/1.1\r\nHost: a\r\n\r\n", status: 404),
            RawRequestCase("405", "PUT /hello HTTP/1.1\r\nHost: a\r\n\r\n", status: 405),
            RawRequestCase("500", "GET /fail HTTP/1.1\r\nHost: a\r\n\r\n", status: 500),
            RawRequestCase("413", "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 9999\r\n\r\n", status: 413),
            RawRequestCase("400", "GET / HTTP/1.1\r\nHost: a\r\nBad Name: v\r\n\r\n", status: 400),
            RawRequestCase("501", "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\n", status: 501),
        ]

        @Test(arguments: failures)
        func everyEngineFailureGoesThroughTheApplicationsResponder(_ row: RawRequestCase) async throws {
            try await withTestServer(problemResponder: Self.render) { server in
                let client = try await server.connect()
                let response = try await client.exchange(row.request)
                #expect(response.status == row.status)
                #expect(response.header("X-Rendered") == "app")
                #expect(response.text.hasPrefix("rendered "))
                #expect(response.carriesEngineFields)
            }
        }

        @Test func theEngineStillAddsAllowTo405() async throws {
            try await withTestServer(problemResponder: Self.render) { server in
                let client = try await server.connect()
                let response = try await client.exchange("DELETE /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(response.text == "rendered methodNotAllowed")
                #expect(response.header("Allow") == "GET, HEAD, OPTIONS")
            }
        }
    }

    @Suite struct EngineFields {
        @Test(arguments: [
            RawRequestCase("200", "GET /hello HTTP/1.1\r\nHost: a\r\n\r\n", status: 200),
            RawRequestCase("200 to HEAD", "HEAD /hello HTTP/1.1\r\nHost: a\r\n\r\n", status: 200),
            RawRequestCase("streamed 200", "GET /stream HTTP/1.1\r\nHost: a\r\n\r\n", status: 200),
        ] + ApplicationRenderedProblems.failures)
        func everyResponseCarriesRequestIdAndNosniff(_ row: RawRequestCase) async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange(row.request, bodyless: row.request.hasPrefix("HEAD"))
                #expect(response.status == row.status)
                #expect(response.carriesEngineFields)
                #expect(response.header("Date") != nil)
            }
        }

        @Test func saneClientRequestIdIsEchoed() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\nX-Request-Id: trace-42:abc/def\r\n\r\n")
                #expect(response.header("X-Request-Id") == "trace-42:abc/def")
            }
        }

        @Test(arguments: ["has space", "quote\"d", String(repeating: "a", count: 129), "caf\u{E9}"])
        func insaneClientRequestIdIsReplaced(_ id: String) async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\nX-Request-Id: \(id)\r\n\r\n")
                let echoed = try #require(response.header("X-Request-Id"))
                #expect(echoed != id)
                #expect(!echoed.isEmpty)
            }
        }

        @Test func generatedRequestIdsDiffer() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let first = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                let second = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(first.header("X-Request-Id") != second.header("X-Request-Id"))
            }
        }
    }
}
