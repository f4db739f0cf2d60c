import Foundation
import LatchkeyClient
import Testing
import TestSupport

/// The real `latchkey serve` for the client's tests (as EndToEndTests' AccountServer):
/// cheap password hashes, a signing key and issuer of its own so tokens outlive a restart,
/// throttling off unless asked for. It can stop and start again on the same port and data
/// directory, to play a server that restarts or is down.
final class ClientTestServer {
    static let password = "lighthouse-Quokka-42"

    let extra: [String]
    let signingKeys: String
    let rateLimits: Bool
    private(set) var process: LatchkeyProcess
    private(set) var port: Int
    var dataDirectory: String { process.dataDirectory }
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    init(_ extra: [String] = [], rateLimits: Bool = false) throws {
        let key = (0..<32).map { _ in UInt8.random(in: 0...255) }
        (self.extra, self.rateLimits) = (extra, rateLimits)
        signingKeys = "k1:" + Data(key).base64EncodedString()
        process = try LatchkeyProcess(arguments: Self.arguments(port: 0, signingKeys, rateLimits, extra))
        port = try process.waitUntilListening()
    }

    private static func arguments(port: Int, _ signingKeys: String, _ rateLimits: Bool, _ extra: [String]) -> [String] {
        [
            "serve", "--port", "\(port)", "--password-iterations", "1000", "--signing-keys", signingKeys,
            "--issuer", "https://auth.latchkey.test", "--rate-limits-enabled", rateLimits ? "true" : "false",
        ] + extra
    }

    /// SIGTERM and wait: the server ends its streams, drains and exits 0.
    func stop() {
        guard process.process.isRunning else { return }
        process.terminate()
        let status = process.waitForExit()
        #expect(status == 0, "latchkey exits 0 on SIGTERM: \(process.output)")
    }

    /// Starts the server again on the same port, data directory and keys.
    func start() throws {
        stop()
        process = try LatchkeyProcess(arguments: Self.arguments(port: port, signingKeys, rateLimits, extra), dataDirectory: dataDirectory)
        try process.waitUntilListening()
    }

    /// A client of this server, with pauses short enough for tests.
    func client(store: any TokenStore = InMemoryTokenStore(), userAgent: String = "LatchkeyClientTests", through proxy: URL? = nil) -> Latchkey {
        var configuration = LatchkeyConfiguration()
        configuration.requestTimeout = 10
        configuration.refreshRetryWindow = 2
        configuration.refreshBackoff = Backoff(initial: 0.05, maximum: 0.4)
        configuration.presenceBackoff = Backoff(initial: 0.1, maximum: 0.8)
        configuration.userAgent = userAgent
        return Latchkey(baseURL: proxy ?? baseURL, tokenStore: store, configuration: configuration)
    }

    /// A raw request that bypasses the client, as another party (or a lost answer) would.
    func call(_ method: String, _ path: String, json: [String: Any]? = nil, token: String? = nil, headers: [String: String] = [:]) throws -> JSONResponse {
        try TestSupport.call(port: port, method, path, body: json.map(RequestBody.json), token: token, headers: headers)
    }

    /// The sum of `latchkey_http_requests_total` over the samples with all of `labels`,
    /// once two readings 100 ms apart agree (a request is counted as its answer goes out).
    func requestCount(_ labels: [String: String]) throws -> Int {
        var last = -1
        for _ in 0..<20 {
            let text = try call("GET", "/metrics").text
            var sum = 0
            for line in text.split(separator: "\n") where line.hasPrefix("latchkey_http_requests_total{") {
                guard labels.allSatisfy({ line.contains("\($0.key)=\"\($0.value)\"") }),
                      let value = line.split(separator: " ").last.flatMap({ Double($0) }) else { continue }
                sum += Int(value)
            }
            if sum == last { return sum }
            last = sum
            usleep(100_000)
        }
        throw TestError("the request counts kept changing")
    }

    /// `POST /v1/auth/refresh` answers so far (any status).
    func refreshCount() throws -> Int {
        try requestCount(["method": "POST", "route": "/v1/auth/refresh"])
    }

    /// The messages in the development mail drop, oldest first, once at least `count`
    /// are there (or 10 s have passed).
    func mails(atLeast count: Int) throws -> [String] {
        let directory = dataDirectory + "/mail"
        var found: [String] = []
        for _ in 0..<200 {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".eml") }.sorted()
            found = names.compactMap { try? String(contentsOfFile: directory + "/" + $0, encoding: .utf8) }
            if found.count >= count { return found }
            usleep(50_000)
        }
        return found
    }

    deinit {
        if process.process.isRunning { process.terminate() }
    }
}
