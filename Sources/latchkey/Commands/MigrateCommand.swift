import ArgumentParser
import LatchkeyCore
import Logging

/// `latchkey migrate`: apply pending migrations and exit (`serve` does this too).
struct MigrateCommand: SettingsCommand {
    static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Apply database migrations and exit.")

    func run(settings: Settings, logger: Logger) throws {
        try DataDirectory.prepare(settings.dataDir)
        let database = try Database(path: settings.dataDir + "/latchkey.sqlite")
        try database.close()
        logger.info("database is up to date", metadata: ["path": "\(database.location)"])
    }
}
