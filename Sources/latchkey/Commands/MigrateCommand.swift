import ArgumentParser
import LatchkeyCore
import Logging

/// `latchkey migrate`: apply pending migrations and exit (`serve` does this too).
struct MigrateCommand: SettingsCommand {
    static let configuration = CommandConfiguration(commandName: "migrate", abstract: "Apply database migrations and exit.")

    func run(settings: Settings, logger: Logger) throws {
        if settings.database == .sqlite { try DataDirectory.prepare(settings.dataDir) }
        let database = try settings.openDatabase(connections: Settings.commandConnections)
        try database.close()
        logger.info("database is up to date", metadata: ["database": "\(database.location)"])
    }
}
