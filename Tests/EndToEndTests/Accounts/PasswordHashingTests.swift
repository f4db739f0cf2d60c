import Foundation
import Testing
import TestSupport

extension Accounts {
    /// PBKDF2 runs on a bounded pool of its own (ARCHITECTURE.md, "Concurrency"): a burst
    /// of logins gets 503 with `Retry-After` once the queue is full, instead of piling up,
    /// and does not slow `/healthz`.
    @Suite struct PasswordHashing {
        struct Outcome: Sendable {
            let status: Int
            let retryAfter: String?
            let problemJSON: Bool
            let seconds: Double
        }

        @Test(.timeLimit(.minutes(3)))
        func aLoginBurstBeyondTheQueueIsAnswered503WithRetryAfter() throws {
            let server = try AccountServer(iterations: 200_000)
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            let port = server.port
            let burst = 150
            let outcomes = concurrently(burst + 1) { index -> Outcome in
                let started = Date()
                do {
                    if index == burst {
                        // Probe health while the burst is being hashed.
                        usleep(300_000)
                        let response = try call(port: port, "GET", "/healthz")
                        return Outcome(status: response.status, retryAfter: nil, problemJSON: false, seconds: Date().timeIntervalSince(started) - 0.3)
                    }
                    let response = try call(port: port, "POST", "/v1/auth/login",
                                            body: .json(["email": "ada@example.com", "password": "wrong-password-\(index)"]), timeout: 120)
                    return Outcome(status: response.status, retryAfter: response.header("Retry-After"),
                                   problemJSON: response.header("Content-Type")?.hasPrefix("application/problem+json") == true,
                                   seconds: Date().timeIntervalSince(started))
                } catch {
                    return Outcome(status: -1, retryAfter: "\(error)", problemJSON: false, seconds: Date().timeIntervalSince(started))
                }
            }
            let logins = outcomes.dropLast()
            let health = outcomes.last!
            let refused = logins.filter { $0.status == 503 }
            #expect(logins.allSatisfy { $0.status == 401 || $0.status == 503 }, "\(logins.map(\.status))")
            #expect(!refused.isEmpty, "a burst of \(burst) logins overflows the queue: \(logins.map(\.status))")
            #expect(refused.allSatisfy { Int($0.retryAfter ?? "").map { $0 >= 1 } == true && $0.problemJSON }, "503 carries Retry-After")
            #expect(health.status == 200 && health.seconds < 1.0, "/healthz during the burst: \(health)")
            try server.logIn("ada@example.com")
        }
    }
}
