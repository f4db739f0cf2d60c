import Foundation
import Testing

/// `System/Syscall.swift` promises that every system call of the engine goes through its
/// funnel (EINTR retried, EAGAIN a value, EBADF a trap) and that nothing else reads
/// `errno`. Checked on the sources, so a new call written around it fails here.
@Suite struct SyscallFunnelTests {
    private static let engine = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/HTTPServer")
    private static let funnel = "System/Syscall.swift"

    /// The system calls the engine makes. `close` is left out (the engine's own
    /// `close(connection)` shares its name); `closeDescriptor` is its funnel, and a bare
    /// `Glibc.close` is caught below.
    private static let calls = [
        "accept4", "bind", "epoll_create1", "epoll_ctl", "epoll_wait", "eventfd", "fstat", "getsockname", "listen", "open",
        "pread", "read", "recv", "send", "setsockopt", "shutdown", "socket", "write",
    ]

    /// Every line of code (comments left out) of each engine file but the funnel's.
    private static func codeLines() throws -> [(file: String, lines: [String])] {
        let files = try #require(FileManager.default.enumerator(atPath: engine.path)).compactMap { $0 as? String }
        #expect(files.contains(funnel), "the funnel is where this test expects it")
        return try files.filter { $0.hasSuffix(".swift") && $0 != funnel }.sorted().map { file in
            let text = try String(contentsOf: engine.appendingPathComponent(file), encoding: .utf8)
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces).hasPrefix("//") ? "" : String($0)
            }
            return (file, lines)
        }
    }

    @Test func nothingButTheFunnelReadsErrno() throws {
        // `errno` on its own or as `Glibc.errno`; not `error.errno` nor the label `errno:`.
        let read = try Regex(#"(^|[^\w.])(Glibc\.)?errno\b(?!\s*:)"#)
        for (file, lines) in try Self.codeLines() {
            for (number, line) in lines.enumerated() {
                #expect(!line.contains(read), "\(file):\(number + 1) reads errno: \(line)")
            }
        }
    }

    @Test func everySystemCallIsMadeInsideTheFunnel() throws {
        let call = try Regex(#"(^|[^\w.])(Glibc\.)?("# + Self.calls.joined(separator: "|") + #")\(|Glibc\.close\("#)
        var checked = 0
        for (file, lines) in try Self.codeLines() {
            for (number, line) in lines.enumerated() where !line.contains("func ") && line.contains(call) {
                // The call sits in a `syscall { … }` closure opened on its line or just above.
                let opened = lines[max(0, number - 3)...number].contains { $0.contains("syscall") }
                #expect(opened, "\(file):\(number + 1) makes a system call outside the funnel: \(line)")
                checked += 1
            }
        }
        #expect(checked >= 15, "the scan finds the engine's calls (\(checked))")
    }
}
