import FoundationEssentials
import Glibc
import Logging

/// Entry point: `latchkey serve|migrate|healthcheck [options]`, `latchkey backup PATH [options]`,
/// `latchkey users|sessions …` (admin), `latchkey --help`.
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
case "serve", "migrate", "healthcheck", "backup":
    // `backup PATH [options]`: the path comes first, the settings after it.
    var settingArguments = Array(arguments.dropFirst())
    var backupPath = ""
    if command == "backup" {
        guard let path = settingArguments.first, !path.hasPrefix("-") else { fail("backup needs the PATH of a new file: latchkey backup PATH [options]", code: 2) }
        backupPath = path
        settingArguments.removeFirst()
    }
    let settings: Settings
    do {
        settings = try SettingsLoader.load(arguments: settingArguments, environment: ProcessInfo.processInfo.environment)
    } catch {
        fail(error.description, code: 2)
    }
    let format = settings.logFormat
    let level = settings.logLevel
    LoggingSystem.bootstrap { label in LineLogHandler(label: label, format: format, logLevel: level) }
    let logger = Logger(label: "latchkey")
    do {
        switch command {
        case "serve": try ServeCommand.run(settings: settings, logger: logger)
        case "migrate": try MigrateCommand.run(settings: settings, logger: logger)
        case "healthcheck": exit(HealthcheckCommand.run(settings: settings))
        default: try BackupCommand.run(destination: backupPath, settings: settings, logger: logger)
        }
    } catch {
        fail(StartupError.describe(error), code: 1)
    }
case "users", "sessions", "audit":
    let admin: AdminArguments
    let settings: Settings
    do throws(AdminError) {
        admin = try AdminArguments(arguments.dropFirst())
    } catch {
        if case .usage(let message) = error { fail(message, code: 2) }
        fail("\(error)", code: 2)
    }
    do {
        settings = try SettingsLoader.load(arguments: admin.settings, environment: ProcessInfo.processInfo.environment)
    } catch {
        fail(error.description, code: 2)
    }
    LoggingSystem.bootstrap { label in LineLogHandler(label: label, format: settings.logFormat, logLevel: .warning) }
    switch AdminCommands.runBlocking({ try await AdminCommands.run(command, admin, settings: settings) }) {
    case .success(let output):
        print(output)
    case .failure(AdminError.usage(let message)):
        fail(message, code: 2)
    case .failure(AdminError.notFound(let message)):
        fail(message, code: 1)
    case .failure(let error):
        fail(StartupError.describe(error), code: 1)
    }
default:
    fail("unknown command '\(command)' (see latchkey --help)", code: 2)
}
