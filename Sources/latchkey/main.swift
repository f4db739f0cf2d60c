import FoundationEssentials
import Glibc
import Logging

/// Entry point: `latchkey serve [options]`, `latchkey migrate [options]`, `latchkey --help`.
let arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.first ?? "serve"

func fail(_ message: String, code: Int32) -> Never {
    StandardError.write("latchkey: \(message)\n")
    exit(code)
}

// Whatever a command creates (database, key file, and later pictures and mail) holds
// secrets or personal data: owner only.
umask(0o077)

switch command {
case "--help", "-h", "help":
    print(HelpText.text)
    exit(0)
case "--version", "version":
    print("latchkey \(HelpText.version)")
    exit(0)
case "serve", "migrate":
    let settings: Settings
    do {
        settings = try SettingsLoader.load(arguments: Array(arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
    } catch {
        fail(error.description, code: 2)
    }
    let format = settings.logFormat
    let level = settings.logLevel
    LoggingSystem.bootstrap { label in LineLogHandler(label: label, format: format, logLevel: level) }
    let logger = Logger(label: "latchkey")
    do {
        if command == "serve" {
            try ServeCommand.run(settings: settings, logger: logger)
        } else {
            try MigrateCommand.run(settings: settings, logger: logger)
        }
    } catch {
        fail(StartupError.describe(error), code: 1)
    }
default:
    fail("unknown command '\(command)' (see latchkey --help)", code: 2)
}
