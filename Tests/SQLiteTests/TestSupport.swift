import Foundation
import SQLite
import Testing

/// A fresh directory under the system temporary directory, removed when the value goes away.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("sqlite-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        path = url.path
    }

    func file(_ name: String) -> String {
        path + "/" + name
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// The root suite; each type under test has a suite nested in it.
@Suite struct SQLiteTests {}

extension SQLiteError {
    /// The case without its message, so a test can say which kind of failure it expects
    /// without depending on SQLite's wording.
    var kind: String {
        switch self {
        case .uniqueViolation: return "uniqueViolation"
        case .constraint: return "constraint"
        case .busy: return "busy"
        case .corrupt: return "corrupt"
        case .readOnly: return "readOnly"
        case .other: return "other"
        }
    }
}

extension Connection {
    func count(_ table: String) throws -> Int {
        try queryOne("SELECT count(*) FROM \(table)") { $0.int(at: 0) } ?? -1
    }

    func tableExists(_ name: String) throws -> Bool {
        try queryOne("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", name) { _ in true } ?? false
    }
}
