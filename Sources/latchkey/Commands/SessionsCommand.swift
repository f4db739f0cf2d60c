import ArgumentParser
import LatchkeyCore

/// `latchkey sessions list USER | sessions revoke SESSION_ID | sessions revoke --user USER`.
struct SessionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sessions", abstract: "List or revoke a user's sessions.", subcommands: [List.self, Revoke.self]
    )

    struct List: AdminCommand {
        static let configuration = CommandConfiguration(abstract: "The user's sessions not yet revoked, oldest first.")
        @Argument(help: "The user: an id or an email.")
        var user: String
        @OptionGroup var format: OutputFormat

        func output(_ admin: Administration) async throws -> String {
            let sessions = try admin.sessions(of: try AdminCommands.find(user, admin))
            return format.json ? try AdminCommands.json(sessions.map(SessionRow.init)) : TextTable.sessions(sessions)
        }
    }

    struct Revoke: AdminCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke one session, or every session of --user.")
        @Argument(help: "The session to revoke.")
        var sessionID: String?
        @Option(help: "Revoke every session of this user (an id or an email).")
        var user: String?

        func validate() throws {
            guard (sessionID == nil) != (user == nil) else { throw ValidationError("name a SESSION_ID or --user USER (one of them)") }
        }

        func output(_ admin: Administration) async throws -> String {
            if let user {
                let found = try AdminCommands.find(user, admin)
                try await admin.revokeSessions(of: found)
                return "revoked every session of \(found.id)"
            }
            let id = sessionID ?? ""
            guard try await admin.revoke(session: id) else { throw CommandFailure.notFound("no unrevoked session \(id)") }
            return "revoked session \(id)"
        }
    }
}
