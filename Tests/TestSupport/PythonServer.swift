import Foundation
import Glibc

/// A server a test runs from `Tests/Tools/<script>`: started with `--port-file FILE` (and
/// `--port N` to come back on the same port), it writes the port it listens on to FILE
/// and serves until killed. The mail sink and the HTTPS fixture are two of them.
public final class PythonServer {
    public let directory: String
    public private(set) var port = 0
    private let script: String
    private let arguments: [String]
    private var process: Process?

    public init(script: String, arguments: [String]) throws {
        directory = LatchkeyProcess.makeTemporaryDirectory()
        self.script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Tools/\(script)").path
        self.arguments = arguments
        try start()
    }

    deinit {
        stop()
    }

    /// Starts the server (again): on a free port the first time, on the same one after.
    public func start() throws {
        let portFile = directory + "/port"
        try? FileManager.default.removeItem(atPath: portFile)
        guard FileManager.default.createFile(atPath: directory + "/stderr", contents: nil) else { throw TestError("cannot create \(directory)/stderr") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [testPython, script, "--port-file", portFile] + (port == 0 ? [] : ["--port", "\(port)"]) + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: directory + "/stderr"))
        try process.run()
        self.process = process
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline, process.isRunning {
            if let text = try? String(contentsOfFile: portFile, encoding: .utf8), let bound = Int(text) {
                port = bound
                return
            }
            usleep(50_000)
        }
        let errors = (try? String(contentsOfFile: directory + "/stderr", encoding: .utf8)) ?? ""
        throw TestError("\(URL(fileURLWithPath: script).lastPathComponent) did not start: \(errors)")
    }

    /// Kills the server, as a crash would: the next connection is refused. (SIGKILL,
    /// since a child inherits the test runner's blocked signals, SIGTERM among them.)
    public func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
