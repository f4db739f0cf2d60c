import Foundation
import HTTPServer
import LatchkeyCore

/// Response bodies of the contract ("Objects"), encoded with nulls kept where the
/// contract shows them.
enum JSONResponses {
    static let noStore = [HTTPField(name: "Cache-Control", value: "no-store")]

    static func make(_ status: Int, _ body: some Encodable, private isPrivate: Bool = true) -> Response {
        let bytes = (try? JSONCoding.encoder.encode(body)).map(Array.init) ?? []
        return .json(status, bytes, headers: isPrivate ? noStore : [])
    }

    static func noContent() -> Response {
        Response(status: 204, headers: noStore)
    }
}

struct UserBody: Encodable {
    let user: User

    enum CodingKeys: String, CodingKey { case id, email, emailVerified, displayName, photoURL, createdAt }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(user.id, forKey: .id)
        try container.encode(user.email, forKey: .email)
        try container.encode(user.emailVerified, forKey: .emailVerified)
        try container.encode(user.displayName, forKey: .displayName)
        try container.encode(user.photoURL, forKey: .photoURL)
        try container.encode(RFC3339.format(user.createdAt), forKey: .createdAt)
    }
}

struct PublicProfileBody: Encodable {
    let profile: PublicProfile

    enum CodingKeys: String, CodingKey { case id, displayName, photoURL }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(profile.id, forKey: .id)
        try container.encode(profile.displayName, forKey: .displayName)
        try container.encode(profile.photoURL, forKey: .photoURL)
    }
}

struct TokenPairBody: Encodable {
    let accessToken: String
    let tokenType = "Bearer"
    let expiresIn: Int64
    let refreshToken: String
    let user: UserBody

    init(_ pair: TokenPair) {
        accessToken = pair.accessToken
        expiresIn = pair.expiresIn
        refreshToken = pair.refreshToken
        user = UserBody(user: pair.user)
    }
}

struct SessionsBody: Encodable {
    struct Item: Encodable {
        let id: String
        let createdAt: String
        let lastUsedAt: String
        let userAgent: String?
        let current: Bool

        enum CodingKeys: String, CodingKey { case id, createdAt, lastUsedAt, userAgent, current }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(createdAt, forKey: .createdAt)
            try container.encode(lastUsedAt, forKey: .lastUsedAt)
            try container.encode(userAgent, forKey: .userAgent)
            try container.encode(current, forKey: .current)
        }
    }

    let sessions: [Item]
}

/// `2026-11-22T17:30:00Z`: UTC, whole seconds, as Swift's `.iso8601` decodes it.
enum RFC3339 {
    static func format(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}
