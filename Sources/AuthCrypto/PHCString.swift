/// A parsed `$pbkdf2-sha256$i=<iterations>$<salt>$<hash>` string (the PHC string format
/// with the standard alphabet, unpadded). The string carries its own parameters, so the
/// iteration count can rise over time without invalidating stored hashes.
struct PHCString: Sendable, Equatable {
    static let algorithm = "pbkdf2-sha256"

    /// Stored strings come from our database, but a tampered row must not be able to pin a
    /// login thread for minutes: counts above this are refused rather than computed.
    static let maximumIterations = 10_000_000
    /// Longer strings are not ours; refusing them early keeps parsing cheap.
    static let maximumLength = 512
    static let saltLengths = 8...64
    static let hashLengths = 16...64

    let iterations: Int
    let salt: [UInt8]
    let hash: [UInt8]

    init(iterations: Int, salt: [UInt8], hash: [UInt8]) {
        self.iterations = iterations
        self.salt = salt
        self.hash = hash
    }

    /// Nil for anything malformed or out of range; never traps on input.
    init?(parsing string: String) {
        guard string.utf8.count <= Self.maximumLength else { return nil }
        let fields = string.split(separator: "$", omittingEmptySubsequences: false)
        guard fields.count == 5, fields[0].isEmpty, fields[1] == Self.algorithm,
              let iterations = Self.parseIterations(fields[2]),
              let salt = Base64Unpadded.decode(String(fields[3])), Self.saltLengths.contains(salt.count),
              let hash = Base64Unpadded.decode(String(fields[4])), Self.hashLengths.contains(hash.count)
        else { return nil }
        self.init(iterations: iterations, salt: salt, hash: hash)
    }

    /// `i=` followed by decimal digits without sign or leading zero (one spelling per
    /// value), at most `maximumIterations`.
    private static func parseIterations(_ field: Substring) -> Int? {
        guard field.hasPrefix("i=") else { return nil }
        let digits = field.utf8.dropFirst(2)
        guard !digits.isEmpty, digits.count <= 8, digits.first != UInt8(ascii: "0") else { return nil }
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        guard value <= maximumIterations else { return nil }
        return value
    }

    var encoded: String {
        "$\(Self.algorithm)$i=\(iterations)$\(Base64Unpadded.encode(salt))$\(Base64Unpadded.encode(hash))"
    }
}
