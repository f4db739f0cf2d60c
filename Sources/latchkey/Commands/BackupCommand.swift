import ArgumentParser
import LatchkeyCore
import Logging

/// `latchkey backup PATH`: a consistent copy of the configured database, safe beside a
/// running server (it keeps committing while the copy is taken).
struct BackupCommand: SettingsCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup", abstract: "Write a consistent copy of the database to PATH, safe while the server runs."
    )

    @Argument(help: "The new file to write (it must not exist yet).")
    var path: String

    func run(settings: Settings, logger: Logger) throws {
        guard settings.database == .sqlite else {
            throw CommandFailure.usage("backup copies the SQLite database; this one is PostgreSQL (the database setting): back it up with pg_dump")
        }
        try DatabaseBackup.copy(databaseAt: settings.dataDir + "/latchkey.sqlite", to: path)
        let destination = path
        _ = try AdminCommands.perform(settings) { admin in
            try await admin.recordBackup(to: destination)
            return ""
        }
        logger.info("backup written", metadata: ["path": "\(path)"])
    }
}
