import JSONStream

/// One account of a Firebase Auth export (`firebase auth:export FILE --format=json`): the
/// fields Latchkey keeps, as the export wrote them. The others (provider data, MFA,
/// custom claims, last sign-in) are skipped unread.
struct FirebaseUser: Sendable {
    /// Its position in the `users` array, and where its object starts: for messages.
    let index: Int
    let location: JSONLocation
    var localID = ""
    var email: String?
    var emailVerified = false
    /// The scrypt hash and the user's salt, decoded; nil for an account without a password.
    var passwordHash: [UInt8]?
    var salt: [UInt8]?
    var displayName: String?
    var photoURL: String?
    var disabled = false
    /// Unix seconds; nil when the export gives none.
    var createdAt: Int64?

    /// `users[3]`, as messages name the account.
    var path: String { "users[\(index)]" }

    /// Reads the object at the reader's position. A field of the wrong type is an error
    /// naming the account and the field; a value Latchkey's rules refuse (an email, a
    /// name) is not: the import decides what to do with it.
    static func read(from reader: JSONStreamReader, index: Int) throws -> FirebaseUser {
        let kind = try reader.peekKind()
        let location = reader.location
        guard kind == .object else { throw reader.error("users[\(index)]: expected an account (an object), found \(kind)") }
        var user = FirebaseUser(index: index, location: location)
        var hasID = false
        let fields = FieldReader(reader: reader, path: user.path)
        try reader.beginObject()
        while let key = try reader.nextKey() {
            switch key {
            case "localId":
                guard let id = try fields.string(key) else { throw reader.error("\(user.path).localId: expected a string, found null") }
                user.localID = id
                hasID = true
            case "email": user.email = try fields.string(key)
            case "emailVerified": user.emailVerified = try fields.bool(key)
            case "passwordHash": user.passwordHash = try fields.base64(key)
            case "salt": user.salt = try fields.base64(key)
            case "displayName": user.displayName = try fields.string(key)
            case "photoUrl": user.photoURL = try fields.string(key)
            case "disabled": user.disabled = try fields.bool(key)
            case "createdAt": user.createdAt = try fields.epochMilliseconds(key).map { $0 / 1000 }
            default: try reader.skipValue()
            }
        }
        guard hasID else { throw JSONStreamError("\(user.path): no localId", at: location) }
        if user.passwordHash != nil, user.salt == nil { throw JSONStreamError("\(user.path): a passwordHash without its salt", at: location) }
        return user
    }
}
