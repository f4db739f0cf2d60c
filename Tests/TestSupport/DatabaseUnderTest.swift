import Foundation
import Synchronization

/// The database the end-to-end tests run `latchkey` over: SQLite (a file in each data
/// directory, the default) or, with `LATCHKEY_TEST_DATABASE=postgres`, PostgreSQL on the
/// test cluster. In the PostgreSQL mode every data directory gets a database of its own,
/// made on first use, so whatever runs on one data directory (a restart, `migrate`, an admin
/// command, a second instance) sees the same rows, as it would in that directory's SQLite file.
public enum DatabaseUnderTest {
    public static let isPostgreSQL: Bool = {
        switch ProcessInfo.processInfo.environment["LATCHKEY_TEST_DATABASE"] ?? "" {
        case "", "sqlite": return false
        case "postgres": return true
        case let other: fatalError("LATCHKEY_TEST_DATABASE is '\(other)': expected sqlite or postgres")
        }
    }()

    /// The commands that open the database (`serve` also runs for no command at all; `keys`
    /// records its changes in the audit log); `backup` and `migrate-to` read SQLite's file,
    /// `healthcheck` opens none.
    private static let databaseCommands: Set<String> = ["serve", "migrate", "users", "sessions", "audit", "import", "keys"]

    /// Data directory (absolute, standardized) -> its database; never dropped: the
    /// databases go with the cluster when the test process exits.
    private static let databases = Mutex<[String: TestDatabase]>([:])

    /// The URL of the PostgreSQL database of `dataDirectory`, made on first use.
    public static func postgresURL(forDataDirectory dataDirectory: String) throws -> String {
        let key = URL(fileURLWithPath: dataDirectory).standardizedFileURL.path
        return try databases.withLock { databases in
            if let database = databases[key] { return database.url }
            let database = try TestDatabase()
            databases[key] = database
            return database.url
        }
    }

    /// `arguments` as the mode needs them: in the PostgreSQL mode, a command that opens the
    /// database gets `--database` with its data directory's URL, unless the test already chose
    /// a database. The data directory is found as `latchkey` finds it: the last `--data-dir`,
    /// else `LATCHKEY_DATA_DIR`, else `./data` in the working directory.
    static func arguments(_ arguments: [String], environment: [String: String], currentDirectory: String?) throws -> [String] {
        guard isPostgreSQL, opensTheDatabase(arguments),
              environment["LATCHKEY_DATABASE"] == nil,
              !arguments.contains(where: { $0 == "--database" || $0.hasPrefix("--database=") })
        else { return arguments }
        let working = currentDirectory ?? FileManager.default.currentDirectoryPath
        let named = flagValue("--data-dir", in: arguments) ?? environment["LATCHKEY_DATA_DIR"] ?? "./data"
        let dataDirectory = named.hasPrefix("/") ? named : working + "/" + named
        return arguments + ["--database", try postgresURL(forDataDirectory: dataDirectory)]
    }

    private static func opensTheDatabase(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return true }
        if first.hasPrefix("-") { return !["--help", "-h", "--version"].contains(first) }
        return databaseCommands.contains(first)
    }

    /// The last value of `--name value` or `--name=value`.
    private static func flagValue(_ name: String, in arguments: [String]) -> String? {
        var value: String?
        for (index, argument) in arguments.enumerated() {
            if argument == name, index + 1 < arguments.count { value = arguments[index + 1] }
            if argument.hasPrefix(name + "=") { value = String(argument.dropFirst(name.count + 1)) }
        }
        return value
    }
}
