import ArgumentParser

/// `latchkey`: the commands of the one binary. Every command also takes the settings
/// flags of `serve` (see `SettingFlags`), so it finds the same data directory.
struct Latchkey: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "latchkey",
        abstract: "A self-hosted auth server in one binary.",
        discussion: HelpText.settings,
        version: "latchkey \(HelpText.version)",
        subcommands: [
            ServeCommand.self, MigrateCommand.self, MigrateToCommand.self, HealthcheckCommand.self, BackupCommand.self,
            UsersCommand.self, SessionsCommand.self, KeysCommand.self, AuditCommand.self, ImportCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )
}
