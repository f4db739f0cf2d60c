import LatchkeyCore

extension Settings {
    /// The database the `database` setting names, opened and migrated. `connections`
    /// overrides `databasePoolSize` for a short-lived command, which needs few.
    func openDatabase(connections: Int? = nil) throws -> Database {
        try Database(database, dataDirectory: dataDir, connections: connections ?? databasePoolSize)
    }

    /// What a command's few writes and reads need on PostgreSQL: a writer and a reader.
    static let commandConnections = 2
}
