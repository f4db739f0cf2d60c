import Testing
@testable import HTTPServer

extension ServerOverSockets {
    @Suite struct Timeouts {
        static func shortTimeouts(_ configuration: inout ServerConfiguration) {
            configuration.headerTimeout = .milliseconds(500)
            configuration.bodyTimeout = .milliseconds(500)
            configuration.idleTimeout = .milliseconds(500)
        }

        @Test func incompleteHeadGets408AndClose() async throws {
            try await withTestServer(Self.shortTimeouts) { server in
                let client = try await server.connect()
                let start = ContinuousClock.now
                try await client.send("GET /hello HTTP/1.1\r\nHost: a\r\n")
                let response = try await client.readResponse()
                #expect(response.status == 408)
                #expect(response.isProblem)
                #expect(response.header("Connection") == "close")
                // Load only makes it later; the loop's cached clock may make it up to ~100 ms early.
                #expect(ContinuousClock.now - start >= .milliseconds(200))
                #expect(try await client.waitForClose())
            }
        }

        @Test func stalledBodyGets408AndClose() async throws {
            try await withTestServer(Self.shortTimeouts) { server in
                let client = try await server.connect()
                try await client.send("POST /echo HTTP/1.1\r\nHost: a\r\nX-Request-Id: stalled-1\r\nContent-Length: 10\r\n\r\nabc")
                let response = try await client.readResponse()
                #expect(response.status == 408)
                #expect(response.header("X-Request-Id") == "stalled-1")
                #expect(try await client.waitForClose())
            }
        }

        @Test func idleKeepAliveConnectionIsClosedSilently() async throws {
            try await withTestServer(Self.shortTimeouts) { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(response.status == 200)
                #expect(try await client.waitForClose())
                #expect(client.unreadBytes.isEmpty)
            }
        }

        @Test func connectionThatNeverSendsIsClosedSilently() async throws {
            try await withTestServer(Self.shortTimeouts) { server in
                let client = try await server.connect()
                #expect(try await client.waitForClose())
                #expect(client.unreadBytes.isEmpty)
            }
        }

        @Test func aBodyThatKeepsTheMinimumRateIsNotTimedOut() async throws {
            try await withTestServer({ $0.bodyTimeout = .seconds(1); $0.bodyMinRate = 1 }) { server in
                let client = try await server.connect()
                try await client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\n")
                // The pauses add up to more than the body timeout, but each byte (at a
                // minimum rate of 1 byte/s) buys a second.
                for byte in "abcd" {
                    try await Task.sleep(for: .milliseconds(300))
                    try await client.send(String(byte))
                }
                let response = try await client.readResponse()
                #expect(response.status == 200)
                #expect(response.text == "abcd")
            }
        }

        /// A body trickled a byte at a time, each byte well within the body timeout of the
        /// previous one, still ends with 408 once its time (1 s, plus 1 s per KiB) is spent.
        @Test func aTrickledBodyGets408AtItsDeadlineWhateverItsLatestByte() async throws {
            try await withTestServer({ $0.bodyTimeout = .seconds(1) }) { server in
                let client = try await server.connect()
                try await client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n")
                let start = ContinuousClock.now
                var answered: RawResponse?
                for _ in 0..<20 where answered == nil {  // at most 6 s of trickling
                    try await Task.sleep(for: .milliseconds(300))
                    do {
                        try await client.send("x")
                    } catch {
                        answered = try? await client.readResponse()  // the server closed on us
                    }
                    if answered == nil, ContinuousClock.now - start > .seconds(2) { answered = try await client.readResponse() }
                }
                #expect(answered?.status == 408)
                #expect(ContinuousClock.now - start < .seconds(5), "cut off near its deadline, not after the trickle ended")
            }
        }

        /// Some clients end a body with an extra CRLF; it must not count as the start of a head.
        @Test func emptyLineAfterARequestDoesNotStartTheHeaderTimer() async throws {
            try await withTestServer({ $0.headerTimeout = .milliseconds(300) }) { server in
                let client = try await server.connect()
                let echoed = try await client.exchange("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc\r\n")
                #expect(echoed.text == "abc")
                try await Task.sleep(for: .seconds(1))
                let next = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\n\r\n")
                #expect(next.status == 200)
            }
        }
    }
}
