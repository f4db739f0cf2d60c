import Foundation
import Glibc

/// Runs a program to its end with standard input from /dev/null and its output in files,
/// and returns its exit status (-1 when a signal ended it) and what it wrote.
///
/// The child gets no descriptor of the test process beyond those three. A test process holds
/// many that are not close-on-exec: Foundation's `Process` makes the socket pair through
/// which it learns that a child ended without `SOCK_CLOEXEC`, and keeps the child's end open
/// in the parent until `run()` returns. A program started here in that moment which leaves a
/// daemon behind (`scripts/postgres start`) would hand that end to the daemon, and Foundation
/// would never see that other child end: its zombie is then never reaped, which leaves
/// Swift Testing's exit-test monitor (a `waitid(P_ALL, WNOWAIT)` loop) spinning on it and
/// every later exit test waiting forever.
public func runChildProgram(_ path: String, _ arguments: [String]) -> (status: Int32, output: String, error: String) {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-child-\(UUID().uuidString)").path
    let outputPath = base + ".out"
    let errorPath = base + ".err"
    defer {
        try? FileManager.default.removeItem(atPath: outputPath)
        try? FileManager.default.removeItem(atPath: errorPath)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    guard addCloseFrom(&actions, 3) == 0 else { return (-1, "", "posix_spawn_file_actions_addclosefrom_np failed") }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    let argv = ([path] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let spawned = posix_spawn(&pid, path, &actions, nil, argv, environ)
    guard spawned == 0 else { return (-1, "", "could not run \(path): error \(spawned)") }
    // Only this child's own pid: a wait for any child would take the exit of processes that
    // Foundation or Swift Testing are waiting for.
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    let error = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    // WIFEXITED / WEXITSTATUS are macros Swift does not import.
    let exited = status & 0x7f == 0
    return (exited ? (status >> 8) & 0xff : -1, output, error)
}

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), declared only under
/// `_GNU_SOURCE`, which Swift's Glibc module is not built with.
private let addCloseFrom: @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32 = {
    guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
        fatalError("this libc has no posix_spawn_file_actions_addclosefrom_np (glibc 2.34 or later needed)")
    }
    return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
}()
