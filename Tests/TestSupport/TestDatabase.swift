import Foundation
import PostgreSQL

/// A database of its own on the test cluster (`CREATE DATABASE t_<uuid>`), for one test or
/// one group of servers, so tests running in parallel never see each other's rows. Call
/// `drop()` when done (a `defer` right after making it): it also keeps the value alive until
/// then. Whatever is left goes with the cluster when the process exits.
public final class TestDatabase: Sendable {
    public let name: String
    /// The cluster's URL with this database in place of its own.
    public let url: String

    public init() throws {
        name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let clusterURL = try TestCluster.url()
        let admin = try Connection(url: clusterURL)
        try admin.execute("CREATE DATABASE \(name)")
        url = Self.replacingDatabase(of: clusterURL, with: name)
    }

    /// Drops the database, ending any session still on it (a server that was killed).
    public func drop() {
        guard let admin = try? Connection(url: try TestCluster.url()) else { return }
        try? admin.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// `postgres://user:pass@host:port/db?query` with `name` in place of `db`.
    static func replacingDatabase(of url: String, with name: String) -> String {
        guard let schemeEnd = url.range(of: "://")?.upperBound else { return url }
        let rest = url[schemeEnd...]
        let pathStart = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let query = rest[pathStart...].drop { $0 != "?" }
        return String(url[..<pathStart]) + "/" + name + query
    }
}
