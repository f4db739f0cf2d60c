import ArgumentParser
import Dispatch
import FoundationEssentials
import Glibc
import LatchkeyAPI
import LatchkeyCore
import Logging

/// An admin command (`users`, `sessions`, `audit`, `keys`): it works on the configured
/// database beside a running server and prints a table for people or JSON for scripts.
protocol AdminCommand: SettingsCommand, Sendable {
    func output(_ admin: Administration) async throws -> String
}

extension AdminCommand {
    static var logLevel: Logger.Level? { .warning }

    func run(settings: Settings, logger: Logger) throws {
        let command = self
        print(try AdminCommands.perform(settings) { admin in try await command.output(admin) })
    }
}

/// `--json`: one JSON array (an object for a single user) with camelCase fields.
struct OutputFormat: ParsableArguments {
    @Flag(help: "Print JSON for scripts instead of a table.")
    var json = false
}

enum AdminCommands {
    /// Runs `body` on the configured database, from the synchronous entry point, and
    /// closes the database after it.
    static func perform(_ settings: Settings, _ body: @escaping @Sendable (Administration) async throws -> String) throws -> String {
        if settings.database == .sqlite {
            let path = settings.dataDir + "/latchkey.sqlite"
            // A wrong data directory must not quietly get an empty database of its own.
            guard access(path, F_OK) == 0 else { throw CommandFailure.notFound("no database at \(path) (check --data-dir)") }
        }
        let database = try settings.openDatabase(connections: Settings.commandConnections)
        defer { try? database.close() }
        let pictures = ProfilePictures(
            database: database, root: settings.dataDir + "/uploads/profile_pictures", publicURL: settings.resolvedPublicURL(boundPort: settings.port)
        )
        let admin = Administration(database: database, pictures: pictures, policy: settings.accountsPolicy(boundPort: settings.port))
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        Task.detached {
            do {
                box.result = .success(try await body(admin))
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return try box.result!.get()
    }

    /// `@unchecked Sendable`: written by the task before it signals, read after the wait.
    private final class ResultBox: @unchecked Sendable {
        var result: Result<String, any Error>?
    }

    /// The user `reference` (an id or an email) names, or exit 1.
    static func find(_ reference: String, _ admin: Administration) throws -> User {
        guard let user = try admin.user(reference) else { throw CommandFailure.notFound("no user \(reference)") }
        return user
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
