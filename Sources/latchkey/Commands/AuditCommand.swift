import ArgumentParser
import LatchkeyAPI
import LatchkeyCore

/// `latchkey audit [--user USER] [--since RFC3339] [--json]`.
struct AuditCommand: AdminCommand {
    static let configuration = CommandConfiguration(commandName: "audit", abstract: "Read the audit log, oldest entry first.")

    @Option(help: "Only this user's entries (an id or an email; the id of a deleted account works too).")
    var user: String?
    @Option(help: "Only entries at or after this time, such as 2026-11-01T00:00:00Z.", transform: { text in
        guard let seconds = RFC3339.unixSeconds(text) else { throw ValidationError("expected a time such as 2026-11-01T00:00:00Z") }
        return seconds
    })
    var since: Int64?
    @OptionGroup var format: OutputFormat

    func output(_ admin: Administration) async throws -> String {
        // A deleted account's entries stay: an id that names no user is still an id.
        let userID = try user.map { reference in try admin.user(reference)?.id ?? reference }
        let entries = try admin.audit(user: userID, since: since ?? 0)
        return format.json ? try AdminCommands.json(entries.map(AuditRow.init)) : TextTable.audit(entries)
    }
}
