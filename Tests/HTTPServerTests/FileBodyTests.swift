import Foundation
import Testing
@testable import HTTPServer

extension ServerOverSockets {
    /// A file body goes out in pieces with its `Content-Length`, and the connection goes on.
    @Suite struct FileBodies {
        @Test func aFileLargerThanTheSocketBuffersArrivesWholeWithItsLength() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /file HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(response.status == 200)
                #expect(response.header("Content-Length") == String(TestRoutes.bigBody.count))
                #expect(response.header("Transfer-Encoding") == nil)
                #expect(response.body == TestRoutes.bigBody)
                let next = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(next.text == "hello")
            }
        }

        @Test func headGivesTheLengthWithoutTheBytesAndAnEmptyFileIsZero() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let head = try await client.exchange("HEAD /file HTTP/1.1\r\nHost: a\r\n\r\n", bodyless: true)
                #expect(head.header("Content-Length") == String(TestRoutes.bigBody.count))
                #expect(head.body.isEmpty)
                let empty = try await client.exchange("GET /file?empty HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(empty.header("Content-Length") == "0")
                #expect(empty.body.isEmpty)
                #expect(try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n").text == "hello")
            }
        }

        @Test func pipelinedRequestsBehindAFileAreAnsweredAfterItInOrder() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                try await client.send("GET /file HTTP/1.1\r\nHost: a\r\n\r\nGET /file HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                let first = try await client.readResponse()
                let second = try await client.readResponse()
                let third = try await client.readResponse()
                #expect(first.body == TestRoutes.bigBody && second.body == TestRoutes.bigBody)
                #expect(third.text == "hello")
            }
        }

        @Test func http10GetsTheFileAndTheConnectionCloses() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /file HTTP/1.0\r\n\r\n")
                #expect(response.body == TestRoutes.bigBody)
                #expect(response.header("Connection") == "close")
                #expect(try await client.waitForClose())
            }
        }
    }
}
