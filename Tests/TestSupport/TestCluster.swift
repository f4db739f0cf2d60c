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

    /// Runs scripts/postgres with its output in files, and waits for it; the script bounds
    /// its own waits (pg_ctl -w -t). posix_spawn and waitpid rather than Foundation's
    /// Process, whose exit monitoring hung here when the first uses of the cluster raced
    /// on the test pool's two threads (the script's shell was left a zombie, never reaped).
    private static func runScript(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        let script = repositoryRoot.appendingPathComponent("scripts/postgres").path
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-pg-script-\(UUID().uuidString)").path
        let outputPath = base + ".out"
        let errorPath = base + ".err"
        defer {
            try? FileManager.default.removeItem(atPath: outputPath)
            try? FileManager.default.removeItem(atPath: errorPath)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = ([script] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, script, &actions, nil, argv, environ)
        guard spawned == 0 else {
            return (-1, "", "could not run \(script): error \(spawned)")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS are macros Swift does not import.
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : -1, output, error)
    }
}
