import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `/metrics` labels come from a fixed set, so what strangers send cannot grow the
    /// scrape or the server's memory (a method token or a path that became a label would
    /// be a new series, with its own histogram, kept until the process exits).
    @Suite struct MetricsCardinality {
        /// Sends `requests` pipelined on one connection, `batch` at a time (each batch read
        /// back before the next, so neither side's socket buffer fills), and returns the
        /// statuses.
        static func pipeline(_ server: AccountServer, _ requests: [String], batch: Int = 100) throws -> [Int] {
            let connection = try RawConnection(port: server.port)
            var statuses: [Int] = []
            for start in stride(from: 0, to: requests.count, by: batch) {
                let pieces = requests[start..<min(start + batch, requests.count)]
                try connection.send(pieces.joined())
                for _ in pieces { statuses.append(try connection.readResponse().status) }
            }
            return statuses
        }

        /// Every `(method, route)` label pair of the request counter.
        static func labelPairs(_ families: Metrics.Families) -> Set<[String]> {
            let samples = families["latchkey_http_requests"]?["samples"] as? [[Any]] ?? []
            return Set(samples.compactMap { sample in
                (sample[1] as? [String: String]).map { [$0["method"] ?? "", $0["route"] ?? ""] }
            })
        }

        /// The attacker, with no credentials, sends 2,000 requests with made-up method tokens
        /// and 2,000 for paths that name no route, pipelined on one connection. Before, each
        /// token became a series of its own with a 16-bucket histogram, kept for good, and
        /// the operator's next scrape carried them all. Now the attacker's requests land in
        /// two series, `OTHER` and `unmatched`, and the scrape stays small.
        @Test func distinctMethodsAndPathsFromStrangersAddNoSeries() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let marker = "Zq\(UInt32.random(in: 100_000...999_999))"
            let methods = (0..<2_000).map { "\(marker)M\($0) /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }
            let paths = (0..<2_000).map { "GET /\(marker)/p\($0) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n" }
            // Lower case is another method (methods are case-sensitive, RFC 9110 §9.1).
            let lookalike = ["get /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"]
            let statuses = try Self.pipeline(server, methods + paths + lookalike)
            #expect(statuses == Array(repeating: 405, count: 2_000) + Array(repeating: 404, count: 2_000) + [405])
            #expect(try server.call("GET", "/healthz").status == 200)

            let (text, families) = try Metrics.scrape(server)
            #expect(text.utf8.count < 64 * 1024, "the scrape is \(text.utf8.count) bytes")
            #expect(!text.contains(marker), "no method token or path of the attacker's is a label")
            let requests = "latchkey_http_requests"
            #expect(Metrics.value(families, requests, "latchkey_http_requests_total", ["method": "OTHER", "route": "unmatched", "status": "405"]) == 2_001)
            #expect(Metrics.value(families, requests, "latchkey_http_requests_total", ["method": "GET", "route": "unmatched", "status": "404"]) == 2_000)
            #expect(Metrics.value(families, requests, "latchkey_http_requests_total", ["method": "GET", "route": "/healthz", "status": "200"]) == 1)
            let latency = "latchkey_http_request_duration_seconds"
            #expect(Metrics.value(families, latency, latency + "_count", ["method": "OTHER", "route": "unmatched"]) == 2_001)
            let methodLabels = Set(Self.labelPairs(families).map { $0[0] })
            #expect(methodLabels.isSubset(of: ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "OTHER"]), "\(methodLabels.sorted())")
            let routes = Set(Self.labelPairs(families).map { $0[1] })
            #expect(routes == ["/healthz", "unmatched"], "\(routes.sorted())")
        }
    }
}
