import Dispatch
import FoundationEssentials
import Glibc
import LatchkeyAPI
import LatchkeyCore

/// `latchkey users …` and `latchkey sessions …`: tables for people, `--json` for scripts.
enum AdminCommands {
    static let usage = """
        latchkey users list [--json] | users show|disable|enable|delete USER [--json]
        latchkey sessions list USER [--json] | sessions revoke SESSION_ID | sessions revoke --user USER
        latchkey audit [--user USER] [--since RFC3339] [--json]
        (USER is an id or an email; the settings flags of serve find the database)
        """

    /// The configured database, opened for an admin command; close it when done.
    static func open(_ settings: Settings) throws -> (Administration, Database) {
        let path = settings.dataDir + "/latchkey.sqlite"
        // A wrong data directory must not quietly get an empty database of its own.
        guard access(path, F_OK) == 0 else { throw AdminError.notFound("no database at \(path) (check --data-dir)") }
        let database = try Database(path: path)
        let pictures = ProfilePictures(
            database: database, root: settings.dataDir + "/uploads/profile_pictures", publicURL: settings.resolvedPublicURL(boundPort: settings.port)
        )
        return (Administration(database: database, pictures: pictures), database)
    }

    static func run(_ command: String, _ arguments: AdminArguments, settings: Settings) async throws -> String {
        let (admin, database) = try open(settings)
        defer { try? database.close() }
        if command == "audit" {
            guard arguments.subcommand == nil else { throw AdminError.usage("audit takes no operand; usage:\n" + usage) }
            // A deleted account's entries stay: an id that names no user is still an id.
            let userID = try arguments.user.map { reference in try admin.user(reference)?.id ?? reference }
            let entries = try admin.audit(user: userID, since: arguments.since ?? 0)
            return arguments.json ? try json(entries.map(AuditRow.init)) : table(entries)
        }
        switch (command, arguments.subcommand) {
        case ("users", "list"):
            let users = try admin.users()
            return arguments.json ? try json(users.map(UserRow.init)) : table(users)
        case ("users", "show"), ("users", "disable"), ("users", "enable"), ("users", "delete"):
            var user = try find(arguments.operand, admin)
            switch arguments.subcommand {
            case "disable": user = try await admin.setDisabled(true, user)
            case "enable": user = try await admin.setDisabled(false, user)
            case "delete":
                try await admin.delete(user)
                return arguments.json ? try json(UserRow(user)) : "deleted \(user.id) (\(user.email))"
            default: break
            }
            return arguments.json ? try json(UserRow(user)) : table([user])
        case ("sessions", "list"):
            let sessions = try admin.sessions(of: try find(arguments.operand, admin))
            return arguments.json ? try json(sessions.map(SessionRow.init)) : table(sessions)
        case ("sessions", "revoke"):
            if let reference = arguments.user {
                let user = try find(reference, admin)
                try await admin.revokeSessions(of: user)
                return "revoked every session of \(user.id)"
            }
            guard let id = arguments.operand else { throw AdminError.usage("sessions revoke needs a SESSION_ID or --user USER") }
            guard try await admin.revoke(session: id) else { throw AdminError.notFound("no unrevoked session \(id)") }
            return "revoked session \(id)"
        default:
            throw AdminError.usage("unknown \(command) command '\(arguments.subcommand ?? "")'; usage:\n" + usage)
        }
    }

    /// Runs an admin command from the synchronous entry point.
    static func runBlocking(_ body: @escaping @Sendable () async throws -> String) -> Result<String, any Error> {
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox()
        Task.detached {
            do {
                box.result = .success(try await body())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        return box.result!
    }

    /// `@unchecked Sendable`: written by the task before it signals, read after the wait.
    private final class ResultBox: @unchecked Sendable {
        var result: Result<String, any Error>?
    }

    private static func find(_ reference: String?, _ admin: Administration) throws -> User {
        guard let reference else { throw AdminError.usage("name the USER (an id or an email)") }
        guard let user = try admin.user(reference) else { throw AdminError.notFound("no user \(reference)") }
        return user
    }

    private static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func table(_ users: [User]) -> String {
        TextTable.render(["ID", "EMAIL", "DISPLAY NAME", "VERIFIED", "DISABLED", "CREATED"], users.map { user in
            [user.id, user.email, user.displayName, user.emailVerified ? "yes" : "no", user.disabled ? "yes" : "no", RFC3339.format(user.createdAt)]
        })
    }

    private static func table(_ entries: [AuditEntry]) -> String {
        TextTable.render(["AT", "EVENT", "USER", "ADDRESS", "SESSION", "DETAIL"], entries.map { entry in
            [RFC3339.format(entry.at), entry.event.rawValue, entry.userID ?? "-", entry.address ?? "-", entry.sessionID ?? "-", entry.detail ?? ""]
        })
    }

    private static func table(_ sessions: [Session]) -> String {
        TextTable.render(["ID", "CREATED", "LAST USED", "USER AGENT"], sessions.map { session in
            [session.id, RFC3339.format(session.createdAt), RFC3339.format(session.lastUsedAt), session.userAgent ?? ""]
        })
    }
}

/// `{id, email, emailVerified, displayName, photoURL, disabled, createdAt}`, photoURL null when unset.
struct UserRow: Encodable {
    let user: User

    init(_ user: User) { self.user = user }

    enum Keys: String, CodingKey { case id, email, emailVerified, displayName, photoURL, disabled, createdAt }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(user.id, forKey: .id)
        try container.encode(user.email, forKey: .email)
        try container.encode(user.emailVerified, forKey: .emailVerified)
        try container.encode(user.displayName, forKey: .displayName)
        if let photoURL = user.photoURL { try container.encode(photoURL, forKey: .photoURL) } else { try container.encodeNil(forKey: .photoURL) }
        try container.encode(user.disabled, forKey: .disabled)
        try container.encode(RFC3339.format(user.createdAt), forKey: .createdAt)
    }
}

/// `{id, userId, createdAt, lastUsedAt, userAgent}`, userAgent null when unknown.
struct SessionRow: Encodable {
    let session: Session

    init(_ session: Session) { self.session = session }

    enum Keys: String, CodingKey { case id, userId, createdAt, lastUsedAt, userAgent }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(session.id, forKey: .id)
        try container.encode(session.userID, forKey: .userId)
        try container.encode(RFC3339.format(session.createdAt), forKey: .createdAt)
        try container.encode(RFC3339.format(session.lastUsedAt), forKey: .lastUsedAt)
        if let agent = session.userAgent { try container.encode(agent, forKey: .userAgent) } else { try container.encodeNil(forKey: .userAgent) }
    }
}

/// `{at, event, userId, address, sessionId, detail}`, absent values null.
struct AuditRow: Encodable {
    let entry: AuditEntry

    init(_ entry: AuditEntry) { self.entry = entry }

    enum Keys: String, CodingKey { case at, event, userId, address, sessionId, detail }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(RFC3339.format(entry.at), forKey: .at)
        try container.encode(entry.event.rawValue, forKey: .event)
        for (key, value) in [(Keys.userId, entry.userID), (.address, entry.address), (.sessionId, entry.sessionID), (.detail, entry.detail)] {
            if let value { try container.encode(value, forKey: key) } else { try container.encodeNil(forKey: key) }
        }
    }
}

/// Columns padded to their widest cell, two spaces apart.
enum TextTable {
    static func render(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
