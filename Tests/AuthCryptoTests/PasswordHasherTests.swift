import AuthCrypto
import Testing

@Suite("PasswordHasher")
struct PasswordHasherTests {
    /// Low enough to keep the suite fast; the format and logic do not depend on the count.
    let hasher = PasswordHasher(iterations: 1_000)

    @Test func roundTrips() {
        let phc = hasher.hash("correct horse battery staple")
        #expect(hasher.verify("correct horse battery staple", against: phc))
    }

    @Test func refusesAWrongPassword() {
        let phc = hasher.hash("correct horse battery staple")
        #expect(!hasher.verify("correct horse battery stapl", against: phc))
        #expect(!hasher.verify("Correct horse battery staple", against: phc))
        #expect(!hasher.verify("", against: phc))
    }

    @Test func handlesEmptyAndNonASCIIPasswords() {
        #expect(hasher.verify("", against: hasher.hash("")))
        let phc = hasher.hash("pässwörd 🔑")
        #expect(hasher.verify("pässwörd 🔑", against: phc))
        #expect(!hasher.verify("passwort 🔑", against: phc))
    }

    @Test func writesAPHCStringWithSixteenByteSaltAndThirtyTwoByteHash() throws {
        let phc = hasher.hash("secret")
        let fields = phc.split(separator: "$", omittingEmptySubsequences: false)
        try #require(fields.count == 5)
        #expect(fields[0] == "")
        #expect(fields[1] == "pbkdf2-sha256")
        #expect(fields[2] == "i=1000")
        #expect(Base64Unpadded.decode(String(fields[3]))?.count == 16)
        #expect(Base64Unpadded.decode(String(fields[4]))?.count == 32)
        #expect(!fields[3].contains("=") && !fields[4].contains("="), "unpadded")
    }

    @Test func saltsEveryHash() {
        #expect(hasher.hash("same") != hasher.hash("same"))
    }

    @Test func verifiesAHashMadeByPythonHashlib() {
        // hashlib.pbkdf2_hmac("sha256", b"correct horse battery staple", bytes(range(16)), 1000, 32)
        let phc = "$pbkdf2-sha256$i=1000$AAECAwQFBgcICQoLDA0ODw$ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4"
        #expect(hasher.verify("correct horse battery staple", against: phc))
        // The stored count wins over the configured one.
        #expect(PasswordHasher(iterations: 5_000).verify("correct horse battery staple", against: phc))
    }

    static let validSalt = "AAECAwQFBgcICQoLDA0ODw"
    static let validHash = "ppsXnjrdPB4KryJ6DrOqKqhkWrhv7PbKAMF1Eml8cZ4"

    @Test(arguments: [
        "",
        "$",
        "plaintext",
        "$pbkdf2-sha256$",
        "$pbkdf2-sha256$i=1000$\(validSalt)",
        "$pbkdf2-sha256$i=1000$\(validSalt)$\(validHash)$extra",
        "pbkdf2-sha256$i=1000$\(validSalt)$\(validHash)",
        "$pbkdf2-sha512$i=1000$\(validSalt)$\(validHash)",
        "$argon2id$v=19$m=65536,t=3,p=4$\(validSalt)$\(validHash)",
        "$pbkdf2-sha256$1000$\(validSalt)$\(validHash)",
        "$pbkdf2-sha256$i=$\(validSalt)$\(validHash)",
        "$pbkdf2-sha256$i=0$\(validSalt)$\(validHash)",
        "$pbkdf2-sha256$i=-1000$\(validSalt)$\(validHash)",
        "$pbkdf2-sha256$i=+1000$\(validSalt)$\(validHash)",
        "$pbkdf2-sha256$i=01000$\(validSalt)$\(validHash)",
        "$pbkdf2-sha256$i=1e3$\(validSalt)$\(validHash)",
        "$pbkdf2-sha256$i=99999999999999999999999$\(validSalt)$\(validHash)",
        "$pbkdf2-sha256$i=10000001$\(validSalt)$\(validHash)",  // above the DoS cap
        "$pbkdf2-sha256$i=1000$$\(validHash)",
        "$pbkdf2-sha256$i=1000$\(validSalt)$",
        "$pbkdf2-sha256$i=1000$\(validSalt)==$\(validHash)",
        "$pbkdf2-sha256$i=1000$\(validSalt)$\(validHash)=",
        "$pbkdf2-sha256$i=1000$AAEC-wQFBgcICQoLDA0ODw$\(validHash)",
        "$pbkdf2-sha256$i=1000$AAEC$\(validHash)",  // salt too short to be ours
        "$pbkdf2-sha256$i=1000$\(validSalt)$AAECAwQFBgcICQ",  // hash too short
        " $pbkdf2-sha256$i=1000$\(validSalt)$\(validHash)",
        "$pbkdf2-sha256$i=1000$\(validSalt)$\(validHash)\n",
        "$pbkdf2-sha256$i=1000$\(validSalt)$" + String(repeating: "A", count: 600),
    ])
    func refusesMalformedStringsWithoutTrapping(_ phc: String) {
        #expect(!hasher.verify("correct horse battery staple", against: phc))
        #expect(hasher.needsRehash(phc))
    }

    @Test func needsRehashWhenTheStoredCountIsBelowTheConfiguredOne() {
        let phc = hasher.hash("secret")
        #expect(!hasher.needsRehash(phc))
        #expect(!PasswordHasher(iterations: 500).needsRehash(phc))
        #expect(PasswordHasher(iterations: 1_001).needsRehash(phc))
        #expect(PasswordHasher().needsRehash(phc))
    }

    @Test func dummyHashIsWellFormedAtTheDefaultCountAndMatchesNothing() {
        let defaultHasher = PasswordHasher()
        #expect(defaultHasher.iterations == 600_000)
        #expect(PasswordHasher.dummyHash.hasPrefix("$pbkdf2-sha256$i=600000$"))
        #expect(!defaultHasher.needsRehash(PasswordHasher.dummyHash))
        #expect(!defaultHasher.verify("", against: PasswordHasher.dummyHash))
    }

    /// An unknown email costs what a wrong password costs: the dummy check matches
    /// nothing and runs PBKDF2 at the configured count, not a cheaper one.
    @Test func dummyVerifyMatchesNothingAndCostsWhatARealVerifyCosts() {
        let hasher = PasswordHasher(iterations: 50_000)
        #expect(!hasher.dummyVerify(""))
        #expect(!hasher.dummyVerify("latchkey-dummy-s"))
        let stored = hasher.hash("correct horse battery")
        let clock = ContinuousClock()
        // Best of seven each, taken in turns (real, dummy, real, …): a busy machine's pause
        // then slows one sample of each side, never a whole side (the suites run side by
        // side on two cores, and a block of five dummies once landed in such a pause).
        var real = Duration.seconds(3600)
        var dummy = Duration.seconds(3600)
        for _ in 0..<7 {
            real = min(real, clock.measure { _ = hasher.verify("wrong guess", against: stored) })
            dummy = min(dummy, clock.measure { _ = hasher.dummyVerify("wrong guess") })
        }
        #expect(dummy > real / 2 && dummy < real * 2, "dummy \(dummy) vs real \(real)")
    }
}
