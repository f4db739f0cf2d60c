/// The settings part of `latchkey --help`, generated from the settings table so it never
/// drifts from it.
enum HelpText {
    static let version = "0.1.0"

    static var settings: String {
        let rows = SettingsCatalog.all.map { spec in
            "  \(spec.flagName + String(repeating: " ", count: max(1, 31 - spec.flagName.count))) \(spec.environmentName)"
        }
        return """
        Every command takes these settings (flag, then environment variable; flags > environment > config file > defaults):
          --config PATH                   LATCHKEY_CONFIG   (a JSON file of settings)
        \(rows.joined(separator: "\n"))

        Every setting and its default is described in the README. USER is an id or an email.
        """
    }
}
