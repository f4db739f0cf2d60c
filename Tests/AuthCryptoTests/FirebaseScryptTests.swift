import AuthCrypto
import Testing

@Suite("FirebaseScrypt")
struct FirebaseScryptTests {
    /// The example of github.com/firebase/scrypt's README: a project's password hash
    /// parameters, one exported account's salt and hash, and its password.
    static let signerKey = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="
    static let saltSeparator = "Bw=="
    static let salt = "42xEC+ixf3L2lw=="
    static let hash = "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="
    static let password = "user1password"

    static var parameters: FirebaseScryptParameters {
        FirebaseScryptParameters(
            signerKey: Base64Padded.decode(signerKey)!, saltSeparator: Base64Padded.decode(saltSeparator)!, rounds: 8, memoryCost: 14
        )!
    }

    @Test func reproducesTheHashOfFirebasesReadme() throws {
        let salt = try #require(Base64Padded.decode(Self.salt))
        let made = FirebaseScrypt.hash(password: Array(Self.password.utf8), salt: salt, parameters: Self.parameters)
        #expect(Base64Padded.encode(made) == Self.hash)
        #expect(FirebaseScrypt.verify(password: Array(Self.password.utf8), salt: salt, hash: Base64Padded.decode(Self.hash)!, parameters: Self.parameters))
    }

    @Test func refusesAWrongPasswordSaltSeparatorOrCost() throws {
        let salt = try #require(Base64Padded.decode(Self.salt))
        let stored = try #require(Base64Padded.decode(Self.hash))
        let password = Array(Self.password.utf8)
        let p = Self.parameters
        #expect(!FirebaseScrypt.verify(password: Array("user1passwore".utf8), salt: salt, hash: stored, parameters: p))
        #expect(!FirebaseScrypt.verify(password: password, salt: Array(salt.dropLast()) + [0], hash: stored, parameters: p))
        let otherSeparator = try #require(FirebaseScryptParameters(signerKey: p.signerKey, saltSeparator: [8], rounds: 8, memoryCost: 14))
        #expect(!FirebaseScrypt.verify(password: password, salt: salt, hash: stored, parameters: otherSeparator))
        let cheaper = try #require(FirebaseScryptParameters(signerKey: p.signerKey, saltSeparator: p.saltSeparator, rounds: 8, memoryCost: 13))
        #expect(!FirebaseScrypt.verify(password: password, salt: salt, hash: stored, parameters: cheaper))
        // A stored hash cut short never matches, even on the bytes it has.
        #expect(!FirebaseScrypt.verify(password: password, salt: salt, hash: Array(stored.prefix(32)), parameters: p))
    }

    @Test func parametersOutsideFirebasesBoundsAreRefused() {
        let key = Self.parameters.signerKey
        #expect(FirebaseScryptParameters(signerKey: key, saltSeparator: [7], rounds: 0, memoryCost: 14) == nil)
        #expect(FirebaseScryptParameters(signerKey: key, saltSeparator: [7], rounds: 9, memoryCost: 14) == nil)
        #expect(FirebaseScryptParameters(signerKey: key, saltSeparator: [7], rounds: 8, memoryCost: 0) == nil)
        #expect(FirebaseScryptParameters(signerKey: key, saltSeparator: [7], rounds: 8, memoryCost: 15) == nil)
        #expect(FirebaseScryptParameters(signerKey: [], saltSeparator: [7], rounds: 8, memoryCost: 14) == nil)
        #expect(FirebaseScryptParameters(signerKey: key, saltSeparator: [], rounds: 1, memoryCost: 1) != nil)
    }

    @Test func paddedBase64RoundTripsAndRefusesWhatIsNotBase64() {
        #expect(Base64Padded.decode("Bw==") == [7])
        #expect(Base64Padded.decode("Bw") == [7], "the padding may be left off")
        #expect(Base64Padded.encode([7]) == "Bw==")
        #expect(Base64Padded.encode([1, 2, 3]) == "AQID")
        for bad in ["Bw=", "B===", "Bw==Bw==", "Bw ==", "Bw-_", "=", "B"] {
            #expect(Base64Padded.decode(bad) == nil, "\(bad)")
        }
    }
}
