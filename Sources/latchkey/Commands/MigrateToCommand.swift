import ArgumentParser
import LatchkeyCore
import Logging

/// `latchkey migrate-to postgres://…`: moves one instance's SQLite database into an empty
/// PostgreSQL database, so several instances can run over it (stop the server first:
/// what it writes after the copy began stays behind).
struct MigrateToCommand: SettingsCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate-to",
        abstract: "Copy the SQLite database of --data-dir into an empty PostgreSQL database (stop the server first)."
    )

    @Argument(help: "The PostgreSQL database to fill: postgres://user:password@host:port/database. It must hold no accounts yet.")
    var url: String

    func run(settings: Settings, logger: Logger) throws {
        guard case .postgres(let target)? = DatabaseSetting(url) else {
            throw CommandFailure.usage("migrate-to takes a postgres:// or postgresql:// URL")
        }
        let copied = try DatabaseTransfer.copy(sqliteAt: settings.dataDir + "/latchkey.sqlite", toPostgres: target)
        print(TextTable.render(["TABLE", "ROWS"], copied.map { [$0.table, "\($0.rows)"] }))
        logger.info("copied into PostgreSQL: start the instances with this database setting and the same data directory", metadata: [
            "database": "\(DatabaseSetting.postgres(url: target).redacted)",
        ])
    }
}
