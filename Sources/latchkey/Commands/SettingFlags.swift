/// The settings flags every command shares with `serve` (`--data-dir PATH`,
/// `--port=8080`, `--config FILE`), taken out of the command line before the command
/// itself is parsed: the settings catalog stays their one definition, and a flag's value
/// is never mistaken for a command's operand wherever the flag stands.
enum SettingFlags {
    static func split(_ arguments: [String]) -> (settings: [String], command: [String]) {
        let names = Set(SettingsCatalog.all.map(\.flagName) + ["--config"])
        var settings: [String] = []
        var command: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                command.append(argument)
                command.append(contentsOf: rest)
                break
            }
            let name = argument.split(separator: "=", maxSplits: 1).first.map(String.init) ?? argument
            guard argument.hasPrefix("--"), names.contains(name) else {
                command.append(argument)
                continue
            }
            settings.append(argument)
            // `--name value`; a missing value is left for the settings loader to report.
            if !argument.contains("="), let value = rest.popFirst() { settings.append(value) }
        }
        return (settings, command)
    }
}
