import AuthCrypto

/// An imported user's Firebase password hash as `users.password_hash` keeps it until the
/// first login replaces it: `$firebase-scrypt$set=<id>$<salt>$<hash>` (PHC-style, the
/// standard alphabet unpadded). `set` names a row of `imported_hash_parameters`, so the
/// project's signer key is stored once, not in every user's row.
struct ImportedFirebaseHash: Sendable, Equatable {
    static let prefix = "$firebase-scrypt$"
    /// Firebase's salts are 10 bytes and its hashes as long as the signer key (64 bytes);
    /// these bounds only keep a tampered row from costing much.
    static let saltLengths = 1...1024
    static let hashLengths = 1...1024

    let parameterSet: Int64
    let salt: [UInt8]
    let hash: [UInt8]

    init(parameterSet: Int64, salt: [UInt8], hash: [UInt8]) {
        self.parameterSet = parameterSet
        self.salt = salt
        self.hash = hash
    }

    /// Nil for anything malformed or out of range; never traps on input.
    init?(parsing text: String) {
        guard text.utf8.count <= 4096, text.hasPrefix(Self.prefix) else { return nil }
        let fields = text.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[2].hasPrefix("set="),
              fields[2].dropFirst(4).allSatisfy({ $0.isASCII && $0.isNumber }), let set = Int64(fields[2].dropFirst(4)), set > 0,
              let salt = Base64Unpadded.decode(String(fields[3])), Self.saltLengths.contains(salt.count),
              let hash = Base64Unpadded.decode(String(fields[4])), Self.hashLengths.contains(hash.count)
        else { return nil }
        self.init(parameterSet: set, salt: salt, hash: hash)
    }

    var encoded: String {
        "\(Self.prefix)set=\(parameterSet)$\(Base64Unpadded.encode(salt))$\(Base64Unpadded.encode(hash))"
    }
}
