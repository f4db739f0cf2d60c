import JSONStream

/// The parts of a Firestore export Latchkey keeps, read in pieces into the staging
/// database: `displayName` and `photoURL` of each `users/{uid}` document, and the owner
/// (`userId`) of each `displayNames/{name}` document. The export is JSON keyed by
/// collection, then document id, at the top level or under `__collections__` (as
/// firestore-export tools write it); other collections, fields and subcollections are
/// skipped unread.
enum FirestoreExport {
    static func stage(_ path: String, into staging: ImportStaging) throws {
        try ImportError.reading(path) {
            let reader = JSONStreamReader(try FileByteSource(path: path))
            try staging.transaction {
                let kind = try reader.peekKind()
                guard kind == .object else { throw reader.error("expected an object of collections, found \(kind)") }
                try reader.beginObject()
                while let name = try reader.nextKey() {
                    guard name == "__collections__" else {
                        try collection(name, reader, staging)
                        continue
                    }
                    let kind = try reader.peekKind()
                    guard kind == .object else { throw reader.error("__collections__: expected an object of collections, found \(kind)") }
                    try reader.beginObject()
                    while let name = try reader.nextKey() { try collection(name, reader, staging) }
                }
                try reader.finish()
            }
        }
    }

    private static func collection(_ name: String, _ reader: JSONStreamReader, _ staging: ImportStaging) throws {
        switch name {
        case "users":
            try documents(of: name, reader) { uid, fields in
                var displayName: String?
                var photoURL: String?
                while let field = try reader.nextKey() {
                    switch field {
                    case "displayName": displayName = try fields.string(field)
                    case "photoURL", "photoUrl": photoURL = try fields.string(field)
                    default: try reader.skipValue()
                    }
                }
                try staging.setProfile(of: uid, displayName: displayName?.isEmpty == true ? nil : displayName, photoURL: photoURL)
            }
        case "displayNames":
            try documents(of: name, reader) { displayName, fields in
                var owner: String?
                while let field = try reader.nextKey() {
                    if field == "userId" { owner = try fields.string(field) } else { try reader.skipValue() }
                }
                if let owner { try staging.setOwner(ofName: displayName, to: owner) }
            }
        default:
            try reader.skipValue()
        }
    }

    /// Walks `{id: {fields…}, …}`: `body` gets each document's id with the reader inside
    /// it, and reads its fields to the end.
    private static func documents(
        of collection: String, _ reader: JSONStreamReader, _ body: (String, FieldReader) throws -> Void
    ) throws {
        let kind = try reader.peekKind()
        guard kind == .object else { throw reader.error("\(collection): expected an object of documents by id, found \(kind)") }
        try reader.beginObject()
        while let id = try reader.nextKey() {
            let kind = try reader.peekKind()
            guard kind == .object else { throw reader.error("\(collection)/\(id): expected a document (an object), found \(kind)") }
            try reader.beginObject()
            try body(id, FieldReader(reader: reader, path: "\(collection)/\(id)"))
        }
    }
}
