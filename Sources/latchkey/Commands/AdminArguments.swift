/// The arguments of an admin command: its subcommand, a positional operand, `--json`,
/// `--user USER`, and the settings flags it shares with `serve` (passed on).
struct AdminArguments {
    var subcommand: String?
    var operand: String?
    var json = false
    var user: String?
    var settings: [String] = []

    /// `users show ada@example.com --json --data-dir /srv/latchkey`.
    init(_ arguments: ArraySlice<String>) throws(AdminError) {
        var rest = arguments[...]
        if let first = rest.first, !first.hasPrefix("-") { subcommand = first; rest = rest.dropFirst() }
        if let first = rest.first, !first.hasPrefix("-") { operand = first; rest = rest.dropFirst() }
        while let argument = rest.popFirst() {
            switch argument {
            case "--json": json = true
            case "--user":
                guard let value = rest.popFirst() else { throw .usage("--user needs a user id or email") }
                user = value
            default: settings.append(argument)
            }
        }
    }
}

/// What an admin command reports: exit 2 for a bad argument, 1 for something not found.
enum AdminError: Error {
    case usage(String)
    case notFound(String)
}
