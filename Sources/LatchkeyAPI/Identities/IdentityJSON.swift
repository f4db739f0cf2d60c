import HTTPServer
import LatchkeyCore

/// Identity: `{"provider", "subject", "email" (or null), "createdAt"}`.
enum IdentityJSON {
    static func identity(_ identity: Identity) -> [UInt8] {
        var json = JSONObjectWriter()
        write(identity, to: &json)
        return json.finish()
    }

    static func list(_ list: IdentityList) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("identities", jsonArray: list.identities.map { identity($0) })
        json.field("hasPassword", list.hasPassword)
        return json.finish()
    }

    private static func write(_ identity: Identity, to json: inout JSONObjectWriter) {
        json.field("provider", identity.provider)
        json.field("subject", identity.subject)
        json.field("email", identity.email)
        json.field("createdAt", RFC3339.format(identity.createdAt))
    }
}
