import Foundation
import Testing
import TestSupport

/// The contract tested from outside: schemathesis (Tests/Tools/contract_check.py) runs
/// every operation of openapi/openapi.yaml against the real server, with every check it
/// has, signed in through the document's bearer scheme, and finds nothing.
@Suite struct ContractTests {
    /// schemathesis 4.32's checks (`--checks all` runs them all, and `max_response_time`,
    /// which does nothing without a limit).
    static let checks = [
        "not_a_server_error", "status_code_conformance", "content_type_conformance", "response_headers_conformance",
        "response_schema_conformance", "negative_data_rejection", "positive_data_acceptance", "missing_required_header",
        "unsupported_method", "allow_header_conformance", "use_after_free", "ensure_resource_availability", "ignored_auth",
        "object_level_authorization",
    ]

    @Test func schemathesisFindsNothingInAnyOperationWithEveryCheck() async throws {
        // Throttling off (rateLimitsEnabled: the per-address rate and the password-guessing
        // locks), cheap password hashes: thousands of requests from one address in a minute
        // and a half, many of them wrong passwords, are the point here.
        let server = try AccountServer(iterations: 1000, rateLimits: false)
        defer { server.stop() }
        // About 80 s: on a thread of its own, not one of the few the other tests share.
        let port = server.port
        let output = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<String, any Error>) in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runPythonTool("contract_check.py", arguments: ["\(port)"]) })
            }
        }
        let run = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any], "\(output)")
        let report = run["report"] as? String ?? ""

        // schemathesis's report names every failure with a curl command that reproduces it.
        #expect(run["exitCode"] as? Int == 0 && run["failedScenarios"] as? Int == 0,
                "schemathesis exited \(run["exitCode"] ?? "-") with \(run["failedScenarios"] ?? "-") failed scenarios:\n\(report)")
        let operations = try #require(run["operations"] as? [String])
        let tested = try #require(run["tested"] as? [String])
        #expect(operations.count >= 30, "the document's operations: \(operations)")
        #expect(Set(operations).subtracting(tested).sorted() == [], "operations schemathesis did not test")
        let checks = try #require(run["checks"] as? [String: [String: Int]])
        #expect(Self.checks.filter { (checks[$0]?["ran"] ?? 0) == 0 } == [], "checks that never ran: \(checks)")
        #expect(Self.checks.filter { checks[$0]?["failed"] != 0 } == [], "checks that failed: \(checks)")
    }
}
