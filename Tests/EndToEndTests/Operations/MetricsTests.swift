import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `GET /metrics` read by the Prometheus client's own parser: requests by route
    /// template and status with latency histograms, the server's gauges, and never a raw
    /// path, id or token.
    @Suite struct Metrics {
        typealias Families = [String: [String: Any]]

        static func scrape(_ server: AccountServer) throws -> (text: String, families: Families) {
            let connection = try RawConnection(port: server.port)
            try connection.send("GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.header("content-type") == "text/plain; version=0.0.4; charset=utf-8")
            let text = String(decoding: response.body, as: UTF8.self)
            let path = LatchkeyProcess.makeTemporaryDirectory() + "/metrics.txt"
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            let output = try runPythonTool("parse_metrics.py", arguments: [path])
            return (text, try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? Families))
        }

        /// The value of the sample `name` whose labels include `labels`.
        static func value(_ families: Families, _ family: String, _ name: String, _ labels: [String: String] = [:]) -> Double? {
            let samples = families[family]?["samples"] as? [[Any]] ?? []
            for sample in samples {
                guard sample[0] as? String == name, let found = sample[1] as? [String: String] else { continue }
                if labels.allSatisfy({ found[$0.key] == $0.value }) { return sample[2] as? Double }
            }
            return nil
        }

        @Test func requestsAreCountedByRouteTemplateAndStatusWithoutRawPaths() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            for _ in 0..<3 { #expect(try server.me(ada.accessToken).status == 200) }
            expectProblem(try server.call("GET", "/v1/users/\(ada.id)"), 401, "UNAUTHENTICATED")
            _ = try server.call("GET", "/reset-password?token=secret-reset-token-123")
            expectProblem(try server.call("GET", "/no/such/\(ada.id)"), 404, "NOT_FOUND")

            let (text, families) = try Self.scrape(server)
            let requests = "latchkey_http_requests"
            #expect(Self.value(families, requests, "latchkey_http_requests_total", ["method": "POST", "route": "/v1/auth/signup", "status": "201"]) == 1)
            #expect(Self.value(families, requests, "latchkey_http_requests_total", ["method": "GET", "route": "/v1/users/me", "status": "200"]) == 3)
            #expect(Self.value(families, requests, "latchkey_http_requests_total", ["route": "/v1/users/{id}", "status": "401"]) == 1)
            #expect(Self.value(families, requests, "latchkey_http_requests_total", ["method": "GET", "route": "unmatched", "status": "404"]) == 1)
            let latency = "latchkey_http_request_duration_seconds"
            #expect(Self.value(families, latency, latency + "_count", ["route": "/v1/users/me"]) == 3)
            #expect(Self.value(families, latency, latency + "_bucket", ["route": "/v1/users/me", "le": "+Inf"]) == 3)
            #expect(families[latency]?["type"] as? String == "histogram")
            for secret in [ada.id, ada.accessToken, "secret-reset-token-123", ada.email] {
                #expect(!text.contains(secret), "no raw path, id, token or email in the metrics")
            }

            #expect(Self.value(families, "latchkey_open_connections", "latchkey_open_connections") ?? 0 >= 1)
            #expect(Self.value(families, "latchkey_presence_streams", "latchkey_presence_streams") == 0)
            #expect(Self.value(families, "latchkey_hashing_queue_depth", "latchkey_hashing_queue_depth") == 0)
            #expect(Self.value(families, "latchkey_hashing_rejections", "latchkey_hashing_rejections_total") == 0)
            #expect(Self.value(families, "latchkey_throttle_refusals", "latchkey_throttle_refusals_total") == 0)
            #expect(Self.value(families, "latchkey_outbox_backlog", "latchkey_outbox_backlog") != nil)
            #expect(Self.value(families, "latchkey_mail_delivery_failures", "latchkey_mail_delivery_failures_total") == 0)
            #expect(Self.value(families, "latchkey_database_write_batch_size", "latchkey_database_write_batch_size_count") ?? 0 >= 1, "the signup committed")
            #expect(Self.value(families, "latchkey_database_commit_seconds", "latchkey_database_commit_seconds_count") ?? 0 >= 1)
        }

        /// Over PostgreSQL, bearer checks and refreshes go in batches, whose sizes show; over
        /// SQLite there are none, and no such family. A session's first check reads it (later
        /// ones are answered from memory: `SessionCache`), so three sessions make three reads.
        @Test func batchSizesShowOverPostgreSQLOnly() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let others = try (0..<2).map { _ in try server.logIn("ada@example.com") }
            for session in [ada] + others { #expect(try server.me(session.accessToken).status == 200) }
            #expect(try server.refresh(ada.refreshToken).status == 200)

            var (_, families) = try Self.scrape(server)
            let batches = "latchkey_database_batch_size"
            if DatabaseUnderTest.isPostgreSQL {
                #expect(families[batches]?["type"] as? String == "histogram")
                #expect(Self.value(families, batches, batches + "_sum", ["kind": "bearer_check"]) ?? 0 >= 3, "three checks, at least")
                #expect(Self.value(families, batches, batches + "_sum", ["kind": "refresh"]) == 1)
                #expect(Self.value(families, batches, batches + "_count", ["kind": "refresh"]) == 1)
                #expect(Self.value(families, batches, batches + "_count", ["kind": "refresh_read"]) == 0, "a new session's token needs no read")
                // The same token again (a retry within the grace) is answered from a read.
                #expect(try server.refresh(ada.refreshToken).status == 200)
                families = try Self.scrape(server).families
                #expect(Self.value(families, batches, batches + "_count", ["kind": "refresh"]) == 2)
                #expect(Self.value(families, batches, batches + "_sum", ["kind": "refresh_read"]) == 1)
            } else {
                #expect(families[batches] == nil)
            }
        }

        @Test func metricsCanBeTurnedOff() throws {
            let server = try AccountServer(["--metrics-enabled", "false"])
            defer { server.stop() }
            expectProblem(try server.call("GET", "/metrics"), 404, "NOT_FOUND")
        }

        @Test func throttleRefusalsAndOpenStreamsShow() throws {
            let server = try AccountServer(rateLimits: true, ["--login-max-failures", "1"])
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            for _ in 0..<3 { _ = try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": "wrong-password-here"]) }
            let stream = try PresenceEventStream(server, token: ada.accessToken, watching: [ada.id])
            let families = try Self.scrape(server).families
            #expect(Self.value(families, "latchkey_throttle_refusals", "latchkey_throttle_refusals_total") ?? 0 >= 1)
            #expect(Self.value(families, "latchkey_presence_streams", "latchkey_presence_streams") == 1)
            _ = stream
        }
    }
}
