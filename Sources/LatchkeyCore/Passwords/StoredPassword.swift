import AuthCrypto

/// A user's stored password hash with what checking it takes: ours (PBKDF2), or one
/// imported from Firebase together with its project's parameters.
enum StoredPassword: Sendable {
    case pbkdf2(String)
    case firebaseScrypt(ImportedFirebaseHash, FirebaseScryptParameters)
    /// No password matches: an account imported without one (signed in with Google, say;
    /// its owner sets one through a reset link), or an imported hash whose parameters are
    /// missing or out of bounds.
    case unusable

    /// What `users.password_hash` holds for an account imported without a password.
    static let noPassword = "$none$"

    /// Reads the parameters an imported hash names, in the caller's read.
    static func resolve(_ stored: String, on db: StoreConnection) throws -> StoredPassword {
        if stored == noPassword { return .unusable }
        guard stored.hasPrefix(ImportedFirebaseHash.prefix) else { return .pbkdf2(stored) }
        guard let hash = ImportedFirebaseHash(parsing: stored),
              let parameters = try ImportedHashParametersStore.parameters(hash.parameterSet, on: db) else { return .unusable }
        return .firebaseScrypt(hash, parameters)
    }

    /// True for a hash an import wrote and nobody has replaced since: the account has not
    /// been used on Latchkey (a login or a reset would have stored PBKDF2), so a new import
    /// may refresh it.
    static func isImported(_ stored: String) -> Bool {
        stored == noPassword || stored.hasPrefix(ImportedFirebaseHash.prefix)
    }
}

extension PasswordHasher {
    /// The check of a login (or of a password change's current password) against any
    /// stored hash; `rehash` asks the caller to store a fresh PBKDF2 of the password.
    func verifyNormalized(_ password: String, against stored: StoredPassword) -> (matched: Bool, rehash: Bool) {
        switch stored {
        case .pbkdf2(let phc):
            return verifyNormalized(password, against: phc)
        case .firebaseScrypt(let imported, let parameters):
            // Firebase hashed the password as its client sent it and never normalised it, so
            // only that form can match; the new PBKDF2 hash is made from the NFKC form.
            if FirebaseScrypt.verify(password: Array(password.utf8), salt: imported.salt, hash: imported.hash, parameters: parameters) {
                return (true, true)
            }
            // A right password costs scrypt plus the PBKDF2 that replaces it; a wrong one
            // costs the same, so an imported account cannot be told by a quick refusal.
            dummyVerify(password)
            return (false, false)
        case .unusable:
            dummyVerify(password)
            return (false, false)
        }
    }
}
