import ArgumentParser
import LatchkeyCore

/// `latchkey users list|show|disable|enable|delete`.
struct UsersCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users", abstract: "List, show, disable, enable or delete accounts.",
        subcommands: [List.self, Show.self, Disable.self, Enable.self, Delete.self]
    )

    struct List: AdminCommand {
        static let configuration = CommandConfiguration(abstract: "Every account, oldest first.")
        @OptionGroup var format: OutputFormat

        func output(_ admin: Administration) async throws -> String {
            let users = try admin.users()
            return format.json ? try AdminCommands.json(users.map(UserRow.init)) : TextTable.users(users)
        }
    }

    /// The operand of `show`, `disable`, `enable` and `delete`.
    struct Target: ParsableArguments {
        @Argument(help: "The user: an id or an email.")
        var user: String
        @OptionGroup var format: OutputFormat

        func report(_ user: User) throws -> String {
            format.json ? try AdminCommands.json(UserRow(user)) : TextTable.users([user])
        }
    }

    struct Show: AdminCommand {
        static let configuration = CommandConfiguration(abstract: "One account.")
        @OptionGroup var target: Target

        func output(_ admin: Administration) async throws -> String {
            try target.report(try AdminCommands.find(target.user, admin))
        }
    }

    struct Disable: AdminCommand {
        static let configuration = CommandConfiguration(abstract: "Refuse the account's logins and end its sessions (it goes offline).")
        @OptionGroup var target: Target

        func output(_ admin: Administration) async throws -> String {
            try target.report(try await admin.setDisabled(true, try AdminCommands.find(target.user, admin)))
        }
    }

    struct Enable: AdminCommand {
        static let configuration = CommandConfiguration(abstract: "Let a disabled account log in again.")
        @OptionGroup var target: Target

        func output(_ admin: Administration) async throws -> String {
            try target.report(try await admin.setDisabled(false, try AdminCommands.find(target.user, admin)))
        }
    }

    struct Delete: AdminCommand {
        static let configuration = CommandConfiguration(abstract: "Delete the account, its display name, sessions, presence and pictures.")
        @OptionGroup var target: Target

        func output(_ admin: Administration) async throws -> String {
            let user = try AdminCommands.find(target.user, admin)
            try await admin.delete(user)
            return target.format.json ? try AdminCommands.json(UserRow(user)) : "deleted \(user.id) (\(user.email ?? "no address"))"
        }
    }
}
