import Foundation
import PostgreSQL
import Testing
import TestSupport

/// A schema of its own for one test, so tests running in parallel never see each other's
/// tables. Its URL sets the schema as the search_path, so unqualified names land in it.
/// Dropped with everything in it when the value goes away.
final class TestSchema {
    let name: String
    let url: String

    init() throws {
        name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let clusterURL = try TestCluster.url()
        let admin = try Connection(url: clusterURL)
        try admin.execute("CREATE SCHEMA \(name)")
        url = clusterURL + (clusterURL.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(name)"
    }

    func connect() throws -> Connection {
        try Connection(url: url)
    }

    deinit {
        guard let admin = try? Connection(url: try TestCluster.url()) else { return }
        try? admin.execute("DROP SCHEMA \(name) CASCADE")
    }
}

/// The root suite; each area under test has a suite nested in it.
@Suite struct PostgreSQLTests {}

extension PostgreSQLError {
    /// The case without its payload, so a test says which kind of failure it expects
    /// without depending on the server's wording.
    var kind: String {
        switch self {
        case .uniqueViolation: return "uniqueViolation"
        case .foreignKeyViolation: return "foreignKeyViolation"
        case .constraint: return "constraint"
        case .serializationFailure: return "serializationFailure"
        case .deadlock: return "deadlock"
        case .connectionLost: return "connectionLost"
        case .cannotConnect: return "cannotConnect"
        case .queryCanceled: return "queryCanceled"
        case .other: return "other"
        }
    }

    var sqlstate: String? {
        switch self {
        case .constraint(let sqlstate, _, _), .other(let sqlstate, _): return sqlstate
        default: return nil
        }
    }
}

/// Work on a thread of its own (a connection blocked in libpq blocks its thread), with a
/// bounded wait for the outcome.
final class Background<T: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var outcome: Result<T, any Error>?

    init(_ body: @escaping @Sendable () throws -> T) {
        let thread = Thread { [self] in
            outcome = Result { try body() }
            done.signal()
        }
        thread.start()
    }

    /// The outcome, or nil when it did not finish within `seconds`.
    func wait(seconds: Double) -> Result<T, any Error>? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return outcome
    }
}

extension Connection {
    func count(_ table: String) throws -> Int {
        try queryOne("SELECT count(*) FROM \(table)") { $0.int(at: 0) } ?? -1
    }
}
