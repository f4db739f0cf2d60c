import ArgumentParser
import FoundationEssentials
import Glibc
import Logging

/// A command that reads the same settings as `serve` (flags, `LATCHKEY_*`, config file).
protocol SettingsCommand: ParsableCommand {
    /// The level of the command's own log lines; nil takes the `logLevel` setting.
    static var logLevel: Logger.Level? { get }
    func run(settings: Settings, logger: Logger) throws
}

extension SettingsCommand {
    static var logLevel: Logger.Level? { nil }
}

/// Why a command stops short: the message for stderr and the exit status.
struct CommandFailure: Error {
    let message: String
    let status: Int32

    /// A bad argument: exit 2.
    static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 2) }
    /// Something named that does not exist: exit 1.
    static func notFound(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 1) }
}

/// Parses the command line, loads the settings, runs the command and exits: 0 when it
/// succeeds, 2 for a bad argument or setting, 1 for anything else. Errors are one line
/// on stderr (usage follows for a bad argument), never a stack trace.
enum CommandLineEntry {
    static func run(_ arguments: [String]) -> Never {
        let (settingArguments, commandArguments) = SettingFlags.split(arguments)
        let command: any SettingsCommand
        do {
            // A plain `serve` (the container's and the README's command) has nothing for the
            // parser to read: skipping it keeps its reflection off the server's idle pages.
            var parsed: any ParsableCommand = commandArguments.isEmpty || commandArguments == ["serve"]
                ? ServeCommand() : try Latchkey.parseAsRoot(commandArguments)
            guard let settingsCommand = parsed as? any SettingsCommand else {
                // `--help` and `latchkey help …` parse to the library's own help command.
                try parsed.run()
                ProcessExit.now(0)
            }
            command = settingsCommand
        } catch {
            // --help and --version arrive here as well, with exit code 0.
            let message = Latchkey.fullMessage(for: error)
            guard Latchkey.exitCode(for: error).isSuccess else { fail(String(message.trimmingPrefix("Error: ")), status: 2) }
            print(message)
            ProcessExit.now(0)
        }
        let settings: Settings
        do {
            settings = try SettingsLoader.load(arguments: settingArguments, environment: ProcessInfo.processInfo.environment)
        } catch {
            fail(error.description, status: 2)
        }
        let level = type(of: command).logLevel ?? settings.logLevel
        LoggingSystem.bootstrap { label in LineLogHandler(label: label, format: settings.logFormat, logLevel: level) }
        do {
            try command.run(settings: settings, logger: Logger(label: "latchkey"))
        } catch let failure as CommandFailure {
            fail(failure.message, status: failure.status)
        } catch {
            fail(StartupError.describe(error), status: 1)
        }
        ProcessExit.now(0)
    }

    static func fail(_ message: String, status: Int32) -> Never {
        StandardError.write("latchkey: \(message)\n")
        ProcessExit.now(status)
    }
}
