import JSONStream

/// The presence of users in a Realtime Database export (`firebase database:get /`), read
/// in pieces into the staging database: `userPresence/{uid}` with `status` (`online`,
/// `away` or `offline`; anything else, or none, reads as offline) and `lastSeen`
/// (milliseconds since 1970; without it, the account's creation time). The rest of the
/// database is skipped unread.
enum RealtimeDatabaseExport {
    static func stage(_ path: String, into staging: ImportStaging) throws {
        try ImportError.reading(path) {
            let reader = JSONStreamReader(try FileByteSource(path: path))
            try staging.transaction {
                let kind = try reader.peekKind()
                guard kind == .object else { throw reader.error("expected the database's root object, found \(kind)") }
                try reader.beginObject()
                while let key = try reader.nextKey() {
                    guard key == "userPresence" else {
                        try reader.skipValue()
                        continue
                    }
                    let kind = try reader.peekKind()
                    guard kind == .object else { throw reader.error("userPresence: expected an object of users by id, found \(kind)") }
                    try reader.beginObject()
                    while let uid = try reader.nextKey() { try presence(of: uid, reader, staging) }
                }
                try reader.finish()
            }
        }
    }

    private static func presence(of uid: String, _ reader: JSONStreamReader, _ staging: ImportStaging) throws {
        let kind = try reader.peekKind()
        guard kind == .object else { throw reader.error("userPresence/\(uid): expected an object, found \(kind)") }
        let fields = FieldReader(reader: reader, path: "userPresence/\(uid)")
        var status = PresenceStatus.offline
        var lastSeen: Int64?
        try reader.beginObject()
        while let field = try reader.nextKey() {
            switch field {
            case "status": status = try fields.string(field).flatMap(PresenceStatus.init(rawValue:)) ?? .offline
            case "lastSeen": lastSeen = try fields.epochMilliseconds(field).map { $0 / 1000 }
            default: try reader.skipValue()
            }
        }
        try staging.setPresence(of: uid, status: status, lastSeen: lastSeen)
    }
}
