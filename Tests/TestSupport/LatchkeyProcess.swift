import Foundation
import Glibc
import Synchronization

/// The real `latchkey` binary, started the way a user starts it, with its own temporary
/// data directory and a free port, its standard error captured.
public final class LatchkeyProcess {
    public let process = Process()
    public let dataDirectory: String
    public private(set) var port = 0
    private let captured = CapturedOutput()
    private let pipe: Pipe

    /// The binary next to the test bundle: SwiftPM builds both into one folder.
    public static var binaryPath: String {
        let testBinary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var directory = URL(fileURLWithPath: testBinary).deletingLastPathComponent()
        if directory.lastPathComponent.hasSuffix(".xctest") { directory.deleteLastPathComponent() }
        return directory.appendingPathComponent("latchkey").path
    }

    public static func makeTemporaryDirectory() -> String {
        let path = NSTemporaryDirectory() + "latchkey-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// Starts `latchkey <arguments>`; `dataDirectory` is passed with `--data-dir` unless
    /// the arguments name one, and the database with `--database` in the PostgreSQL mode
    /// (see `DatabaseUnderTest`). Does not wait for it to listen.
    public init(arguments: [String] = ["serve", "--port", "0"], environment: [String: String] = [:], dataDirectory: String? = nil, currentDirectory: String? = nil) throws {
        self.dataDirectory = dataDirectory ?? Self.makeTemporaryDirectory() + "/data"
        pipe = Pipe()
        process.executableURL = URL(fileURLWithPath: Self.binaryPath)
        var arguments = arguments
        if arguments.first == "serve" || arguments.first == "migrate", !arguments.contains(where: { $0.hasPrefix("--data-dir") }),
           environment["LATCHKEY_DATA_DIR"] == nil {
            arguments += ["--data-dir", self.dataDirectory]
        }
        process.arguments = try DatabaseUnderTest.arguments(arguments, environment: environment, currentDirectory: currentDirectory)
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("LATCHKEY_") }
        inherited.merge(environment) { $1 }
        process.environment = inherited
        if let currentDirectory { process.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
        process.standardError = pipe
        process.standardOutput = pipe
        try process.run()
        let (fd, captured) = (pipe.fileHandleForReading.fileDescriptor, captured)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        // The reader stops at end of file (the process and whatever inherited its output
        // are gone; a pipe at its end polls readable for ever), or when this object goes
        // away first; `waitForExit` drains what is left itself.
        Thread.detachNewThread {
            while !captured.stopped {
                var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&ready, 1, 100)
                if captured.drain(fd) { break }
            }
        }
    }

    public var output: String { captured.text }

    /// Waits for the "listening on http://host:PORT" line and returns the port.
    @discardableResult
    public func waitUntilListening(timeout: Double = 20) throws -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let range = output.range(of: #"listening on http://[^ "]*:(\d+)"#, options: .regularExpression) {
                let match = String(output[range])
                port = Int(match.split(separator: ":").last!)!
                return port
            }
            guard process.isRunning else { throw TestError("latchkey exited early: \(output)") }
            usleep(20_000)
        }
        throw TestError("latchkey did not start listening: \(output)")
    }

    /// Whether `text` appears in the output within `timeout` seconds: the server writes a
    /// line it logs after answering (or from another thread) some time after the answer.
    public func waitForOutput(containing text: String, timeout: Double = 10) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !output.contains(text) {
            guard Date() < deadline else { return false }
            usleep(20_000)
        }
        return true
    }

    /// Waits for the process to end and returns its exit status (nil on timeout).
    public func waitForExit(timeout: Double = 20) -> Int32? {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else { return nil }
        // Whatever the process wrote is in the pipe by now: take it before answering.
        captured.drain(pipe.fileHandleForReading.fileDescriptor)
        return process.terminationStatus
    }

    public func terminate() { kill(process.processIdentifier, SIGTERM) }

    /// The process's memory map (`/proc/PID/maps`), read to its end: `String(contentsOfFile:)`
    /// stops after its first read of a file whose size reads as 0, as /proc's do.
    public func memoryMap() throws -> String {
        guard let file = FileHandle(forReadingAtPath: "/proc/\(process.processIdentifier)/maps") else {
            throw TestError("cannot open the memory map of \(process.processIdentifier)")
        }
        defer { try? file.close() }
        return String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
    }

    /// The names of the server's threads (`/proc/PID/task/TID/comm`), sorted.
    public func threadNames() throws -> [String] {
        let tasks = "/proc/\(process.processIdentifier)/task"
        return try FileManager.default.contentsOfDirectory(atPath: tasks).compactMap { task in
            FileManager.default.contents(atPath: "\(tasks)/\(task)/comm").map {
                String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .newlines)
            }
        }.sorted()
    }

    deinit {
        captured.stopped = true
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

/// What the process wrote, appended by the pipe's reader thread.
private final class CapturedOutput: Sendable {
    private let storage = Mutex((text: "", stopped: false))

    /// Reads the non-blocking pipe until it is empty, under the lock, so a reader that
    /// drains after the process ended sees every byte it wrote. True at end of file.
    @discardableResult
    func drain(_ fd: Int32) -> Bool {
        storage.withLock { state in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            // Each pass takes bytes out of the pipe or stops.
            while true {
                let count = read(fd, &buffer, buffer.count)
                guard count > 0 else { return count == 0 }
                state.text += String(decoding: buffer[..<count], as: UTF8.self)
            }
        }
    }

    var text: String { storage.withLock { $0.text } }
    var stopped: Bool {
        get { storage.withLock { $0.stopped } }
        set { storage.withLock { $0.stopped = newValue } }
    }
}
