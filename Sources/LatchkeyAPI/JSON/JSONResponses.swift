import Glibc
import HTTPServer
import LatchkeyCore

/// Response bodies of the contract ("Objects"), nulls kept where the contract shows them.
enum JSONResponses {
    static let noStore = [HTTPField(name: "Cache-Control", value: "no-store")]

    /// Private by default: tokens and account data must not be cached anywhere.
    static func make(_ status: Int, _ body: [UInt8], private isPrivate: Bool = true) -> Response {
        .json(status, body, headers: isPrivate ? noStore : [])
    }

    static func noContent() -> Response {
        Response(status: 204, headers: noStore)
    }

    static func user(_ user: User) -> [UInt8] {
        var json = JSONObjectWriter()
        writeUser(user, to: &json)
        return json.finish()
    }

    private static func writeUser(_ user: User, to json: inout JSONObjectWriter) {
        json.field("id", user.id)
        json.field("email", user.email)  // null for an account a provider made without one
        json.field("emailVerified", user.emailVerified)
        json.field("displayName", user.displayName)
        json.field("photoURL", user.photoURL)
        json.field("createdAt", RFC3339.format(user.createdAt))
    }

    static func publicProfile(_ profile: PublicProfile) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("id", profile.id)
        json.field("displayName", profile.displayName)
        json.field("photoURL", profile.photoURL)
        return json.finish()
    }

    /// Sized once for its tokens and a user object, which is written in place: every login
    /// and refresh answers with one.
    static func tokenPair(_ pair: TokenPair) -> [UInt8] {
        let tokens = pair.accessToken.utf8.count + pair.refreshToken.utf8.count + (pair.deviceToken?.utf8.count ?? 0)
        var json = JSONObjectWriter(capacity: tokens + 512)
        json.field("accessToken", pair.accessToken)
        json.field("tokenType", "Bearer")
        json.field("expiresIn", pair.expiresIn)
        json.field("refreshToken", pair.refreshToken)
        if let deviceToken = pair.deviceToken { json.field("deviceToken", deviceToken) }
        json.field("user") { writeUser(pair.user, to: &$0) }
        return json.finish()
    }

    static func sessions(_ sessions: [Session], current: String) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("sessions", jsonArray: sessions.map { session in
            var item = JSONObjectWriter()
            item.field("id", session.id)
            item.field("createdAt", RFC3339.format(session.createdAt))
            item.field("lastUsedAt", RFC3339.format(session.lastUsedAt))
            item.field("userAgent", session.userAgent)
            item.field("current", session.id == current)
            return item.finish()
        })
        return json.finish()
    }

    static func availability(_ answer: DisplayNameAvailability) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("displayName", answer.displayName)
        json.field("available", answer.available)
        if let unavailable = answer.unavailable { json.field("reason", DisplayNameReason.word(for: unavailable)) }
        return json.finish()
    }
}

/// `2026-11-22T17:30:00Z`: UTC, whole seconds, as Swift's `.iso8601` decodes it.
public enum RFC3339 {
    public static func format(_ seconds: Int64) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        // Digits written straight into 20 bytes: this runs for every user object served.
        var text = [UInt8](repeating: UInt8(ascii: "0"), count: 20)
        func put(_ value: Int32, at offset: Int, digits: Int) {
            var value = value
            for position in stride(from: offset + digits - 1, through: offset, by: -1) {
                text[position] = UInt8(ascii: "0") + UInt8(value % 10)
                value /= 10
            }
        }
        put(parts.tm_year + 1900, at: 0, digits: 4)
        put(parts.tm_mon + 1, at: 5, digits: 2)
        put(parts.tm_mday, at: 8, digits: 2)
        put(parts.tm_hour, at: 11, digits: 2)
        put(parts.tm_min, at: 14, digits: 2)
        put(parts.tm_sec, at: 17, digits: 2)
        for (offset, separator) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z")] as [(Int, Unicode.Scalar)] {
            text[offset] = UInt8(ascii: separator)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
