/// `latchkey --help`, generated from the settings table so it never drifts from it.
enum HelpText {
    static let version = "0.1.0"

    static var text: String {
        let rows = SettingsCatalog.all.map { spec in
            "  \(spec.flagName + String(repeating: " ", count: max(1, 29 - spec.flagName.count))) \(spec.environmentName)"
        }
        return """
        latchkey \(version): a self-hosted auth server in one binary.

        Usage:
          latchkey serve [options]     listen and serve (default: 127.0.0.1:8080, data in ./data)
          latchkey migrate [options]   apply database migrations and exit
          latchkey healthcheck [options]  exit 0 when the configured server's /readyz answers 200
          latchkey backup PATH [options]  a consistent copy of the database, safe while the server runs
          latchkey users list [--json] | users show|disable|enable|delete USER [--json]
          latchkey sessions list USER [--json] | sessions revoke SESSION_ID | sessions revoke --user USER
          latchkey audit [--user USER] [--since RFC3339] [--json]
          latchkey --help | --version

        Options (flag, then environment variable; flags > environment > config file > defaults):
          --config PATH                LATCHKEY_CONFIG   (a JSON file of settings)
        \(rows.joined(separator: "\n"))

        Every setting and its default is described in the README.
        """
    }
}
