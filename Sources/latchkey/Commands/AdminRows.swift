import FoundationEssentials
import LatchkeyAPI
import LatchkeyCore

/// `{id, email, emailVerified, displayName, photoURL, disabled, createdAt}`, displayName and
/// photoURL null when unset.
struct UserRow: Encodable {
    let user: User

    init(_ user: User) { self.user = user }

    enum Keys: String, CodingKey { case id, email, emailVerified, displayName, photoURL, disabled, createdAt }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(user.id, forKey: .id)
        if let email = user.email { try container.encode(email, forKey: .email) } else { try container.encodeNil(forKey: .email) }
        try container.encode(user.emailVerified, forKey: .emailVerified)
        if let name = user.displayName { try container.encode(name, forKey: .displayName) } else { try container.encodeNil(forKey: .displayName) }
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

extension TextTable {
    static func users(_ users: [User]) -> String {
        render(["ID", "EMAIL", "DISPLAY NAME", "VERIFIED", "DISABLED", "CREATED"], users.map { user in
            [user.id, user.email ?? "-", user.displayName ?? "-", user.emailVerified ? "yes" : "no", user.disabled ? "yes" : "no", RFC3339.format(user.createdAt)]
        })
    }

    static func sessions(_ sessions: [Session]) -> String {
        render(["ID", "CREATED", "LAST USED", "USER AGENT"], sessions.map { session in
            [session.id, RFC3339.format(session.createdAt), RFC3339.format(session.lastUsedAt), session.userAgent ?? ""]
        })
    }

    static func audit(_ entries: [AuditEntry]) -> String {
        render(["AT", "EVENT", "USER", "ADDRESS", "SESSION", "DETAIL"], entries.map { entry in
            [RFC3339.format(entry.at), entry.event.rawValue, entry.userID ?? "-", entry.address ?? "-", entry.sessionID ?? "-", entry.detail ?? ""]
        })
    }
}
