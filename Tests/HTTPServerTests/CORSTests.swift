import Testing
@testable import HTTPServer

extension ServerOverSockets {
    /// CORS on the wire: which origins are echoed, what a preflight answers, and what `*`
    /// opens (safe methods only, never credentials).
    @Suite struct CORS {
        static let app = "https://app.example.com"

        func listed(_ configuration: inout ServerConfiguration) {
            configuration.cors = CORSPolicy(origins: [Self.app, "http://localhost:3000"])
        }

        @Test func aListedOriginIsEchoedWithCredentialsAndExposedHeaders() async throws {
            try await withTestServer(listed) { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\nOrigin: \(Self.app)\r\n\r\n")
                #expect(response.status == 200)
                #expect(response.header("Access-Control-Allow-Origin") == Self.app)
                #expect(response.header("Access-Control-Allow-Credentials") == "true")
                #expect(response.header("Access-Control-Expose-Headers") == "Retry-After, X-Request-Id")
                #expect(response.header("Vary") == "Origin")
                let missing = try await client.exchange("GET /nowhere HTTP/1.1\r\nHost: a\r\nOrigin: \(Self.app)\r\n\r\n")
                #expect(missing.status == 404 && missing.header("Access-Control-Allow-Origin") == Self.app, "errors are readable by the page too")
            }
        }

        @Test(arguments: ["https://evil.example.com", "https://APP.example.com", "https://app.example.com.evil.com", "null", "https://app.example.com/"])
        func anotherOriginGetsNoCORSFields(_ origin: String) async throws {
            try await withTestServer(listed) { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\nOrigin: \(origin)\r\n\r\n")
                #expect(response.status == 200)
                #expect(response.header("Access-Control-Allow-Origin") == nil)
                #expect(response.header("Access-Control-Allow-Credentials") == nil)
                #expect(response.header("Vary") == "Origin", "a cache must not hand this answer to the listed origin")
            }
        }

        @Test func aPreflightNamesTheMethodsAndHeadersAPageMaySend() async throws {
            try await withTestServer(listed) { server in
                let client = try await server.connect()
                let answer = try await client.exchange(
                    "OPTIONS /echo HTTP/1.1\r\nHost: a\r\nOrigin: \(Self.app)\r\nAccess-Control-Request-Method: POST\r\n"
                    + "Access-Control-Request-Headers: authorization, content-type\r\n\r\n", bodyless: true)
                #expect(answer.status == 204)
                #expect(answer.header("Access-Control-Allow-Origin") == Self.app)
                #expect(answer.header("Access-Control-Allow-Methods") == "POST, OPTIONS")
                #expect(answer.header("Access-Control-Allow-Headers") == "Authorization, Content-Type, X-Request-Id")
                #expect(answer.header("Access-Control-Max-Age") == "600")
                #expect(answer.header("Access-Control-Allow-Credentials") == "true")
                let refused = try await client.exchange(
                    "OPTIONS /echo HTTP/1.1\r\nHost: a\r\nOrigin: \(Self.app)\r\nAccess-Control-Request-Method: DELETE\r\n\r\n", bodyless: true)
                #expect(refused.status == 204 && refused.header("Access-Control-Allow-Origin") == nil, "a method the path does not take")
                let stranger = try await client.exchange(
                    "OPTIONS /echo HTTP/1.1\r\nHost: a\r\nOrigin: https://evil.example.com\r\nAccess-Control-Request-Method: POST\r\n\r\n", bodyless: true)
                #expect(stranger.status == 204 && stranger.header("Access-Control-Allow-Origin") == nil)
            }
        }

        @Test func anyOriginOpensSafeMethodsOnlyAndNeverWithCredentials() async throws {
            try await withTestServer({ $0.cors = CORSPolicy(origins: ["*"]) }) { server in
                let client = try await server.connect()
                let read = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\nOrigin: https://anyone.example\r\n\r\n")
                #expect(read.header("Access-Control-Allow-Origin") == "*")
                #expect(read.header("Access-Control-Allow-Credentials") == nil)
                #expect(read.header("Vary") == nil)
                let write = try await client.exchange("POST /echo HTTP/1.1\r\nHost: a\r\nOrigin: https://anyone.example\r\nContent-Length: 2\r\n\r\nhi")
                #expect(write.status == 200 && write.header("Access-Control-Allow-Origin") == nil)
                let preflight = try await client.exchange(
                    "OPTIONS /echo HTTP/1.1\r\nHost: a\r\nOrigin: https://anyone.example\r\nAccess-Control-Request-Method: POST\r\n\r\n", bodyless: true)
                #expect(preflight.header("Access-Control-Allow-Origin") == nil)
            }
        }

        @Test func withoutCORSNothingIsAdded() async throws {
            try await withTestServer { server in
                let client = try await server.connect()
                let response = try await client.exchange("GET /hello HTTP/1.1\r\nHost: a\r\nOrigin: \(Self.app)\r\n\r\n")
                #expect(response.header("Access-Control-Allow-Origin") == nil && response.header("Vary") == nil)
            }
        }
    }
}
