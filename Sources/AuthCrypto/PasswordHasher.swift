/// Password hashing policy: PBKDF2-HMAC-SHA256 with a random 16-byte salt, stored as a
/// PHC string. A value type with no mutable state, so login workers share it freely.
///
/// Every method here is slow on purpose (hundreds of milliseconds at the default count);
/// run them on the password pool, never on an event loop.
public struct PasswordHasher: Sendable {
    /// OWASP's 2023 recommendation for PBKDF2-HMAC-SHA256.
    public static let defaultIterations = 600_000
    public static let saltLength = 16
    public static let hashLength = 32

    /// A well-formed hash at the default count that no password matches in practice,
    /// for callers that need a stored-looking string. Prefer `dummyVerify(_:)`, which
    /// follows the configured count.
    public static let dummyHash = dummy(iterations: defaultIterations).encoded

    public let iterations: Int
    private let dummy: PHCString

    /// Counts outside 1...10,000,000 are a configuration bug and trap; the caller warns
    /// about counts below `defaultIterations`.
    public init(iterations: Int = PasswordHasher.defaultIterations) {
        precondition(iterations >= 1 && iterations <= PHCString.maximumIterations,
                     "PasswordHasher: iterations must be within 1...\(PHCString.maximumIterations)")
        self.iterations = iterations
        self.dummy = Self.dummy(iterations: iterations)
    }

    public func hash(_ password: String) -> String {
        let salt = SecureRandom.bytes(Self.saltLength)
        let hash = PBKDF2.sha256(password: Array(password.utf8), salt: salt,
                                 iterations: iterations, keyLength: Self.hashLength)
        return PHCString(iterations: iterations, salt: salt, hash: hash).encoded
    }

    /// Recomputes with the parameters stored in `phc` (not the configured ones), so old
    /// hashes keep working after the count is raised. False for anything unparsable.
    public func verify(_ password: String, against phc: String) -> Bool {
        guard let stored = PHCString(parsing: phc) else { return false }
        return Self.matches(password, stored)
    }

    /// Spends the same time as `verify` against a real hash of the configured count, so a
    /// login for an unknown email cannot be told apart from a wrong password by timing.
    /// The dummy's salt and hash are fixed bytes: the cost is in PBKDF2, not in where its
    /// inputs came from, so nothing needs computing (or caching behind a lock) up front.
    /// Always false (the dummy's hash is no PBKDF2 output), returned so the work cannot
    /// be optimised away and a test can see it ran.
    @discardableResult
    public func dummyVerify(_ password: String) -> Bool {
        Self.matches(password, dummy)
    }

    /// True when a successful login should store a fresh hash: the stored count is below
    /// the configured one, the salt or hash is shorter than ours, or the string is not ours.
    public func needsRehash(_ phc: String) -> Bool {
        guard let stored = PHCString(parsing: phc) else { return true }
        return stored.iterations < iterations
            || stored.salt.count < Self.saltLength
            || stored.hash.count < Self.hashLength
    }

    private static func matches(_ password: String, _ stored: PHCString) -> Bool {
        let computed = PBKDF2.sha256(password: Array(password.utf8), salt: stored.salt,
                                     iterations: stored.iterations, keyLength: stored.hash.count)
        return ConstantTime.equals(computed, stored.hash)
    }

    private static func dummy(iterations: Int) -> PHCString {
        PHCString(iterations: iterations,
                  salt: Array("latchkey-dummy-s".utf8),
                  hash: Array("latchkey-dummy-hash-never-match!".utf8))
    }
}
