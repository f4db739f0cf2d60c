import LatchkeyCore
import Logging

/// `latchkey backup PATH`: a consistent copy of the configured database, safe beside a
/// running server (it keeps committing while the copy is taken).
enum BackupCommand {
    static func run(destination: String, settings: Settings, logger: Logger) throws {
        try DatabaseBackup.copy(databaseAt: settings.dataDir + "/latchkey.sqlite", to: destination)
        let (admin, database) = try AdminCommands.open(settings)
        defer { try? database.close() }
        _ = try AdminCommands.runBlocking {
            try await admin.recordBackup(to: destination)
            return ""
        }.get()
        logger.info("backup written", metadata: ["path": "\(destination)"])
    }
}
