import JSONStream

/// The accounts of a Firebase Auth export, one at a time, read from the file in pieces:
/// `{"users": [{"localId": …}, …]}` with any other top-level members skipped. Memory is
/// the reader's buffer and one account, however many the file holds.
final class FirebaseAuthExport {
    let path: String
    private let reader: JSONStreamReader
    private var index = 0
    private var started = false
    private var ended = false

    init(path: String) throws {
        self.path = path
        reader = try ImportError.reading(path) { JSONStreamReader(try FileByteSource(path: path)) }
    }

    /// The next account, or nil after the last one (when the rest of the file has been
    /// checked too). Malformed input is an `ImportError` naming where it is.
    func next() throws -> FirebaseUser? {
        try ImportError.reading(path) {
            if !started {
                started = true
                try openUsersArray()
            }
            guard !ended else { return nil }
            guard try reader.nextElement() else {
                ended = true
                // Members after the array (Firebase writes none) are checked and skipped.
                while try reader.nextKey() != nil { try reader.skipValue() }
                try reader.finish()
                return nil
            }
            defer { index += 1 }
            return try FirebaseUser.read(from: reader, index: index)
        }
    }

    private func openUsersArray() throws {
        let kind = try reader.peekKind()
        guard kind == .object else {
            throw reader.error("expected the object firebase auth:export --format=json writes, {\"users\": […]}, found \(kind)")
        }
        try reader.beginObject()
        // One pass over the top-level members, which the file's length bounds.
        while let key = try reader.nextKey() {
            guard key == "users" else {
                try reader.skipValue()
                continue
            }
            let kind = try reader.peekKind()
            guard kind == .array else { throw reader.error("users: expected an array of accounts, found \(kind)") }
            try reader.beginArray()
            return
        }
        throw reader.error("no \"users\" array: is this the output of firebase auth:export --format=json?")
    }
}
