import Foundation
import Glibc
import PostgreSQL
import Synchronization

/// The PostgreSQL server the tests run against: `LATCHKEY_TEST_POSTGRES_URL` when it is set,
/// otherwise one throwaway cluster per test process, made by `scripts/postgres start` in a
/// fresh temporary directory on first use and stopped (and removed) when the process exits.
/// Every test target that needs PostgreSQL shares it through here.
public enum TestCluster {
    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The cluster's admin URL (the `latchkey` role, owner of the `latchkey` database, and
    /// allowed to create databases).
    public static func url() throws -> String {
        try shared.get()
    }

    private static let shared: Result<String, StartFailure> = {
        if let url = ProcessInfo.processInfo.environment["LATCHKEY_TEST_POSTGRES_URL"], !url.isEmpty {
            return .success(url)
        }
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("latchkey-pg-tests-\(UUID().uuidString)").path
        let result = runScript(["start", directory])
        // Registered before looking at the outcome: a half-made cluster is stopped too.
        startedDirectory.withLock { $0 = directory }
        atexit { TestCluster.stopAtExit() }
        guard result.status == 0 else {
            return .failure(StartFailure(description: "scripts/postgres start failed (\(result.status)): \(result.error)"))
        }
        let url = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard url.hasPrefix("postgres://") else {
            return .failure(StartFailure(description: "scripts/postgres start printed no URL: \(result.output)"))
        }
        return .success(url)
    }()

    private static let startedDirectory = Mutex<String?>(nil)

    private static func stopAtExit() {
        guard let directory = startedDirectory.withLock({ $0 }) else { return }
        _ = runScript(["stop", directory])
    }

    /// The repository root, three levels above this file (Tests/TestSupport/TestCluster.swift).
    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs scripts/postgres and waits for it; the script bounds its own waits (pg_ctl -w -t).
    /// Not through Foundation's `Process`: the server the script leaves running would inherit
    /// the socket through which `Process` learns that the script ended (see `runChildProgram`).
    private static func runScript(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        runChildProgram(repositoryRoot.appendingPathComponent("scripts/postgres").path, arguments)
    }
}
