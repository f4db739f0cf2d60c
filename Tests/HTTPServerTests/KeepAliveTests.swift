import Testing
@testable import HTTPServer

extension ServerOverSockets {
    @Suite struct KeepAlive {
        @Test func http11KeepsTheConnectionOpenByDefault() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let first = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(first.status == 200)
                #expect(first.text == "hello")
                #expect(first.header("Connection") == nil)
                let second = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(second.status == 200)
                #expect(second.text == "hello")
            }
        }

        @Test func http10ClosesAfterTheResponse() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /hello HTTP/1.0\r\n\r\n")
                #expect(response.status == 200)
                #expect(response.header("Connection") == "close")
                #expect(try await client.waitForClose())
            }
        }

        @Test func http10KeepsAliveWhenAsked() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let first = try await client.exchange("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                #expect(first.status == 200)
                #expect(first.header("Connection") == "keep-alive")
                let second = try await client.exchange("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                #expect(second.text == "hello")
            }
        }

        @Test func connectionCloseIsHonoured() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
                #expect(response.status == 200)
                #expect(response.header("Connection") == "close")
                #expect(try await client.waitForClose())
                #expect(client.unreadBytes.isEmpty)
            }
        }

        @Test func headAnswersWithContentLengthAndNoBody() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let head = try await client.exchange("HEAD /hello HTTP/1.1\r\nHost: a\r\n\r\n", bodyless: true)
                #expect(head.status == 200)
                #expect(head.header("Content-Length") == "5")
                // Had the body been sent, it would be read as the start of the next response.
                let next = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(next.status == 200)
                #expect(next.text == "hello")
            }
        }
    }
}
