internal import PostgreSQL
internal import SchemaMigrations

/// PostgreSQL's side of `Database`, for several instances over one database: writer
/// threads (see `PostgreSQLWriter`) and a pool of reader connections, `connections` in all.
/// A quarter of them (at least one) write: a writer commits many jobs per round trip,
/// while every read holds its connection for one; the rest read.
final class PostgreSQLDatabase: Sendable {
    let writer: PostgreSQLWriter
    let readers: PostgreSQLReaderPool
    /// Presence changes between the instances, on connections of its own.
    let presenceBus: ListenNotifyPresenceBus

    /// Connects, migrates (several instances starting at once take turns: the migrator
    /// holds an advisory lock) and opens the writers' and the presence listener's
    /// connections, so a wrong URL or an unreachable server fails here, at start-up.
    init(url: String, connections: Int) throws {
        let writers = max(1, connections / 4)
        let first = try PostgreSQL.Connection(url: url)
        try Migrator(migrations: EmbeddedMigrations.postgres).migrate(first)
        writer = PostgreSQLWriter(connections: try (0..<writers).map { _ in try PostgreSQL.Connection(url: url) })
        readers = try PostgreSQLReaderPool(url: url, capacity: max(1, connections - writers), first: first)
        presenceBus = try ListenNotifyPresenceBus { try PostgreSQL.Connection(url: url) }
    }

    /// `init`, with a driver's failure said in full for start-up as a `StoreError` naming
    /// `location` (the URL without its password; the driver's messages carry none).
    static func connect(url: String, connections: Int, location: String) throws -> PostgreSQLDatabase {
        do {
            return try PostgreSQLDatabase(url: url, connections: connections)
        } catch let error as PostgreSQLError {
            throw StoreError.failed("PostgreSQL at \(location): \(error.description)")
        }
    }

    /// Finishes queued writes and closes every connection.
    func close() {
        presenceBus.stop()
        writer.stop()
        readers.close()
    }
}
