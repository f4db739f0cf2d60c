import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `metricsToken`: with it set, `/metrics` answers only a scraper that sends it as a
    /// bearer token; the figures (request rates, queue depths) are not for strangers.
    @Suite struct MetricsToken {
        static let token = "scrape-\(UInt64.random(in: 1_000_000_000...9_999_999_999))-secret"

        /// The stranger asks for the figures without the token, with a guess, with the
        /// token cut short, with the token and more, and with another scheme: 401 each time,
        /// nothing of the figures in the answer. The operator's Prometheus, with the token,
        /// gets them; and the token never reaches the log.
        @Test func onlyTheConfiguredTokenOpensTheMetrics() throws {
            let server = try AccountServer(["--metrics-token", Self.token])
            let attempts: [[String: String]] = [
                [:],
                ["Authorization": "Bearer not-the-token"],
                ["Authorization": "Bearer " + Self.token.dropLast()],
                ["Authorization": "Bearer " + Self.token + "x"],
                ["Authorization": "Basic " + Self.token],
                ["Authorization": Self.token],
                ["Authorization": "Bearer " + Self.token.uppercased()],
            ]
            for headers in attempts {
                let refused = try server.call("GET", "/metrics", headers: headers)
                expectProblem(refused, 401, "UNAUTHENTICATED", "\(headers)")
                #expect(refused.header("WWW-Authenticate") == "Bearer")
                #expect(!refused.text.contains("latchkey_"), "no figures in a refusal")
            }
            let scraped = try server.call("GET", "/metrics", headers: ["Authorization": "Bearer " + Self.token])
            #expect(scraped.status == 200)
            #expect(scraped.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
            #expect(scraped.text.contains("latchkey_http_requests_total{method=\"GET\",route=\"/metrics\",status=\"401\"} 7"))
            // The scheme is case-insensitive (RFC 9110 §11.1), the token is not.
            #expect(try server.call("GET", "/metrics", headers: ["Authorization": "bearer " + Self.token]).status == 200)
            #expect(try server.call("GET", "/healthz").status == 200, "the token guards /metrics only")
            server.stop()
            #expect(!server.process.output.contains(Self.token), "the token never reaches the log")
        }

        @Test func withoutATokenTheMetricsNeedNoHeader() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let scraped = try server.call("GET", "/metrics")
            #expect(scraped.status == 200)
            #expect(scraped.text.contains("# TYPE latchkey_http_requests_total counter"))
        }

        @Test func theTokenCanComeFromTheEnvironment() throws {
            let process = try LatchkeyProcess(environment: ["LATCHKEY_METRICS_TOKEN": Self.token])
            defer { process.terminate() }
            let port = try process.waitUntilListening()
            expectProblem(try call(port: port, "GET", "/metrics"), 401, "UNAUTHENTICATED")
            #expect(try call(port: port, "GET", "/metrics", token: Self.token).status == 200)
        }

        /// A token no header could carry is a start-up error, and the message does not
        /// repeat the secret.
        @Test func aTokenThatCouldNeverMatchIsRefusedWithoutEchoingIt() throws {
            let process = try LatchkeyProcess(arguments: ["serve", "--port", "0", "--metrics-token", "two words-\(Self.token)"])
            #expect(process.waitForExit() == 2)
            #expect(process.output.trimmingCharacters(in: .whitespacesAndNewlines)
                == "latchkey: invalid value for --metrics-token: expected visible ASCII characters, no spaces")
        }
    }
}
