import AuthCrypto
@testable import LatchkeyCore
import Testing

/// Imported Firebase hashes as `users.password_hash` keeps them, and the login's check
/// against them (README, "Moving from Firebase": at first login).
@Suite struct ImportedPasswordTests {
    /// github.com/firebase/scrypt's README example.
    static let parameters = FirebaseScryptParameters(
        signerKey: Base64Padded.decode("jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==")!,
        saltSeparator: [7], rounds: 8, memoryCost: 14
    )!
    static let imported = ImportedFirebaseHash(
        parameterSet: 3, salt: Base64Padded.decode("42xEC+ixf3L2lw==")!,
        hash: Base64Padded.decode("lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==")!
    )

    @Test func theStoredFormRoundTripsAndNamesItsParameterSet() {
        let text = Self.imported.encoded
        #expect(text == "$firebase-scrypt$set=3$42xEC+ixf3L2lw$lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ")
        #expect(ImportedFirebaseHash(parsing: text) == Self.imported)
        #expect(StoredPassword.isImported(text) && StoredPassword.isImported(StoredPassword.noPassword))
        #expect(!StoredPassword.isImported(PasswordHasher(iterations: 1000).hash("x")))
    }

    @Test(arguments: [
        "$firebase-scrypt$set=3$42xEC+ixf3L2lw",
        "$firebase-scrypt$set=0$42xEC+ixf3L2lw$lSrf",
        "$firebase-scrypt$set=+3$42xEC+ixf3L2lw$lSrf",
        "$firebase-scrypt$set=x$42xEC+ixf3L2lw$lSrf",
        "$firebase-scrypt$i=3$42xEC+ixf3L2lw$lSrf",
        "$firebase-scrypt$set=3$42xEC+ixf3L2lw==$lSrf",
        "$firebase-scrypt$set=3$$lSrf",
        "$firebase-scrypt$set=3$42xEC+ixf3L2lw$lSrf$",
        "$pbkdf2-sha256$set=3$42xEC+ixf3L2lw$lSrf",
    ])
    func malformedStoredFormsAreRefused(_ text: String) {
        #expect(ImportedFirebaseHash(parsing: text) == nil)
    }

    @Test func aLoginChecksTheImportedHashOnceAndAsksForPBKDF2() {
        let hasher = PasswordHasher(iterations: 1000)
        let stored = StoredPassword.firebaseScrypt(Self.imported, Self.parameters)
        #expect(hasher.verifyNormalized("user1password", against: stored) == (true, true))
        #expect(hasher.verifyNormalized("user1passwore", against: stored) == (false, false))
        #expect(hasher.verifyNormalized("user1password", against: .unusable) == (false, false))
        let ours = hasher.hashNormalized("user1password")
        #expect(hasher.verifyNormalized("user1password", against: .pbkdf2(ours)) == (true, false))
    }
}
