import Foundation

/// The test venv's interpreter (`$LATCHKEY_TEST_PYTHON`), else `python3` on PATH.
public var testPython: String {
    ProcessInfo.processInfo.environment["LATCHKEY_TEST_PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
}

/// Runs `python -c script args...` and returns its standard output; throws (failing the
/// test) when the interpreter is missing or the script fails, e.g. on `import jwt`.
///
/// The interpreter is `$LATCHKEY_TEST_PYTHON` (scripts/test points it at the venv with
/// PyJWT), else `python3` on PATH. A missing PyJWT is a failure, never a skip: a broken
/// setup must not pass silently.
public func runPython(_ script: String, arguments: [String] = []) throws -> String {
    try runPython(["-c", script] + arguments)
}

/// Runs the Python program in `Tests/Tools/<name>` with `arguments`; as `runPython`.
public func runPythonTool(_ name: String, arguments: [String] = []) throws -> String {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tools/\(name)").path
    return try runPython([path] + arguments)
}

private func runPython(_ arguments: [String]) throws -> String {
    let python = testPython
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [python] + arguments
    let stdout = Pipe()
    // Standard error goes to a file, not a second pipe, so neither stream can fill up
    // and block the child while we read the other.
    let stderr = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-python-\(UUID().uuidString).stderr")
    guard FileManager.default.createFile(atPath: stderr.path, contents: nil) else { throw TestError("cannot create \(stderr.path)") }
    defer { try? FileManager.default.removeItem(at: stderr) }
    process.standardOutput = stdout
    process.standardError = try FileHandle(forWritingTo: stderr)
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else {
        let errors = (try? String(contentsOf: stderr, encoding: .utf8)) ?? ""
        throw TestError("\(python) exited with status \(process.terminationStatus): \(output)\(errors)")
    }
    return output.trimmingCharacters(in: .whitespacesAndNewlines)
}
