import Testing
@testable import HTTPServer

extension ServerOverSockets {
    @Suite struct Pipelining {
        @Test func answersRequestsSentInOneWriteInOrderAcrossAnOffLoopHandler() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send(
                    "GET /hello HTTP/1.1\r\nHost: a\r\nX-Request-Id: p1\r\n\r\n"
                    + "GET /slow HTTP/1.1\r\nHost: a\r\nX-Request-Id: p2\r\n\r\n"
                    + "POST /echo HTTP/1.1\r\nHost: a\r\nX-Request-Id: p3\r\nContent-Length: 3\r\n\r\nabc"
                    + "GET /hello HTTP/1.1\r\nHost: a\r\nX-Request-Id: p4\r\n\r\n"
                )
                var responses: [RawResponse] = []
                for _ in 0..<4 { responses.append(try await client.readResponse()) }
                #expect(responses.map(\.status) == [200, 200, 200, 200])
                #expect(responses.map { $0.header("X-Request-Id") } == ["p1", "p2", "p3", "p4"])
                #expect(responses.map(\.text) == ["hello", "slow", "abc", "hello"])
            }
        }

        @Test func answersDeferredHandlersFromAnotherThreadInOrder() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send(
                    "GET /deferred HTTP/1.1\r\nHost: a\r\n\r\n"
                    + "GET /hello HTTP/1.1\r\nHost: a\r\n\r\n"
                    + "GET /deferred?built=1 HTTP/1.1\r\nHost: a\r\n\r\n"
                )
                var responses: [RawResponse] = []
                for _ in 0..<3 { responses.append(try await client.readResponse()) }
                #expect(responses.map(\.status) == [200, 200, 200])
                #expect(responses.map(\.text) == ["deferred", "hello", "built"])
            }
        }

        @Test func answersARequestThatArrivesWhileAnOffLoopHandlerRunsAfterIt() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(await eventually { server.probe.slowRequestsStarted == 1 })
                try await client.send("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                let first = try await client.readResponse()
                let second = try await client.readResponse()
                #expect([first.text, second.text] == ["slow", "hello"])
            }
        }

        @Test func requestAfterConnectionCloseIsNotAnswered() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send(
                    "GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
                    + "GET /hello HTTP/1.1\r\nHost: a\r\nX-Request-Id: smuggled\r\n\r\n"
                )
                let response = try await client.readResponse()
                #expect(response.header("Connection") == "close")
                #expect(try await client.waitForClose())
                #expect(client.unreadBytes.isEmpty)
            }
        }

        @Test func requestsBehindLargeResponsesAreAnsweredOnceTheyDrain() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send(
                    "GET /big HTTP/1.1\r\nHost: a\r\n\r\n" + "GET /big HTTP/1.1\r\nHost: a\r\n\r\n" + "GET /hello HTTP/1.1\r\nHost: a\r\n\r\n"
                )
                let first = try await client.readResponse()
                let second = try await client.readResponse()
                let third = try await client.readResponse()
                #expect(first.body == TestRoutes.bigBody)
                #expect(second.body == TestRoutes.bigBody)
                #expect(third.text == "hello")
            }
        }

        @Test func halfClosedClientStillGetsItsResponse() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send("GET /slow HTTP/1.1\r\nHost: a\r\n\r\n")
                client.shutdownWrite()
                let response = try await client.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "slow")
                #expect(try await client.waitForClose())
            }
        }
    }
}
