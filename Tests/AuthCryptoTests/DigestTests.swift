import AuthCrypto
import Testing
import TestSupport

@Suite("SHA-256 (FIPS 180-2 examples)")
struct SHA256Tests {
    @Test func hashesABC() {
        #expect(SHA256.hash(Array("abc".utf8)).hex
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hashesTheEmptyMessage() {
        #expect(SHA256.hash([UInt8]()).hex
            == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test func hashesTheTwoBlockMessage() {
        #expect(SHA256.hash("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8).hex
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func acceptsUTF8ViewsAndNonContiguousCollections() {
        let expected = SHA256.hash(Array("abc".utf8))
        #expect(SHA256.hash("abc".utf8) == expected)
        #expect(SHA256.hash("abc".utf8.lazy.map { $0 }) == expected)
    }
}

/// RFC 4231 §4. Case 5 tests truncated output, which we never produce.
@Suite("HMAC-SHA256 (RFC 4231)")
struct HMACSHA256Tests {
    private static let longKey = [UInt8](repeating: 0xAA, count: 131)

    @Test func case1() {
        let code = HMACSHA256.authenticationCode(key: [UInt8](repeating: 0x0B, count: 20),
                                                 message: Array("Hi There".utf8))
        #expect(code.hex == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func case2KeyShorterThanOutput() {
        let code = HMACSHA256.authenticationCode(key: Array("Jefe".utf8),
                                                 message: Array("what do ya want for nothing?".utf8))
        #expect(code.hex == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func case3CombinedKeyAndDataLongerThan64Bytes() {
        let code = HMACSHA256.authenticationCode(key: [UInt8](repeating: 0xAA, count: 20),
                                                 message: [UInt8](repeating: 0xDD, count: 50))
        #expect(code.hex == "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
    }

    @Test func case4() {
        let code = HMACSHA256.authenticationCode(key: Array(1...25),
                                                 message: [UInt8](repeating: 0xCD, count: 50))
        #expect(code.hex == "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b")
    }

    @Test func case6KeyLargerThanBlockSize() {
        let code = HMACSHA256.authenticationCode(
            key: Self.longKey, message: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
        #expect(code.hex == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func case7KeyAndDataLargerThanBlockSize() {
        let message = "This is a test using a larger than block-size key and a larger than block-size data."
            + " The key needs to be hashed before being used by the HMAC algorithm."
        let code = HMACSHA256.authenticationCode(key: Self.longKey, message: Array(message.utf8))
        #expect(code.hex == "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2")
    }

    /// Keys and messages at SHA-256's block and padding boundaries, where a MAC continued
    /// from the pads' saved states must still pad and count the length as one computed
    /// from the start would. Python: hmac.new(key, message, hashlib.sha256).hexdigest().
    @Test(arguments: [
        (Array(0..<64), [UInt8](repeating: 0x61, count: 55), "9b5169bed02434ee54cff1147388169500f7242400ec15761a0d29a2ebed4091"),
        (Array(0..<65), [UInt8](repeating: 0x62, count: 56), "e8facbc5374ad3a6c122d6b914e759be292f67c985823c65176354741a6e515d"),
        (Array(0..<63), [UInt8](repeating: 0x63, count: 64), "3cdf05ea159c260b6425ef380d358bae6518b4219290c51f3ece07995facf985"),
        (Array(0..<64), [], "3499f163f48604c0b15ac89e4e7c66f314fb3b203b8ac2f564828e62f6be9d9d"),
        ([UInt8](repeating: 0x42, count: 32), (0..<1000).map { UInt8($0 % 251) }, "ac46c6e6c61e0c23f950dd14a8be33daaf100ada4c2b58b615d4e49bc1717b2b"),
    ] as [([UInt8], [UInt8], String)])
    func blockAndPaddingBoundaries(key: [UInt8], message: [UInt8], expected: String) {
        #expect(HMACSHA256.authenticationCode(key: key, message: message).hex == expected)
    }

    /// A key's saved states are read, never spent: one key gives the same MAC every time,
    /// from many threads at once.
    @Test func oneKeyGivesTheSameCodeRepeatedlyAndAcrossThreads() async {
        let key = HMACKey(Array("Jefe".utf8))
        let message = Array("what do ya want for nothing?".utf8)
        let expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        let codes = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<200).map { _ in key.authenticationCode(message).hex } }
            }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(codes.count == 1600)
        #expect(codes.allSatisfy { $0 == expected })
    }

    @Test func acceptsEmptyKeyAndMessage() {
        // Python: hmac.new(b"", b"", hashlib.sha256).hexdigest()
        #expect(HMACSHA256.authenticationCode(key: [], message: []).hex
            == "b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad")
    }
}

/// RFC 7914 §11 (PBKDF2-HMAC-SHA256 vectors), cross-checked with Python's hashlib.pbkdf2_hmac.
@Suite("PBKDF2-HMAC-SHA256 (RFC 7914 §11)")
struct PBKDF2Tests {
    @Test func oneIteration() {
        let key = PBKDF2.sha256(password: Array("passwd".utf8), salt: Array("salt".utf8), iterations: 1, keyLength: 64)
        #expect(key.hex == "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc"
            + "49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783")
    }

    @Test func eightyThousandIterations() {
        let key = PBKDF2.sha256(password: Array("Password".utf8), salt: Array("NaCl".utf8),
                                iterations: 80_000, keyLength: 64)
        #expect(key.hex == "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56"
            + "a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d")
    }

    @Test func acceptsEmptyPasswordAndSalt() {
        // Python: hashlib.pbkdf2_hmac("sha256", b"", b"", 1, 32).hex()
        #expect(PBKDF2.sha256(password: [], salt: [], iterations: 1, keyLength: 32).hex
            == "f7ce0b653d2d72a4108cf5abe912ffdd777616dbbb27a70e8204f3ae2d0f6fad")
    }
}

@Suite("SecureRandom")
struct SecureRandomTests {
    @Test func returnsTheRequestedCount() {
        #expect(SecureRandom.bytes(0).isEmpty)
        #expect(SecureRandom.bytes(1).count == 1)
        #expect(SecureRandom.bytes(64).count == 64)
    }

    @Test func doesNotRepeat() {
        #expect(SecureRandom.bytes(32) != SecureRandom.bytes(32))
    }
}

@Suite("ConstantTime")
struct ConstantTimeTests {
    @Test func equalBytesAreEqual() {
        #expect(ConstantTime.equals([], []))
        #expect(ConstantTime.equals([1, 2, 3], [1, 2, 3]))
    }

    @Test func anyDifferingByteMakesThemUnequal() {
        let reference = [UInt8](repeating: 0x5A, count: 32)
        for index in reference.indices {
            var changed = reference
            changed[index] ^= 0x01
            #expect(!ConstantTime.equals(reference, changed), "byte \(index)")
        }
    }

    @Test func differentLengthsAreUnequal() {
        #expect(!ConstantTime.equals([1, 2, 3], [1, 2]))
        #expect(!ConstantTime.equals([], [0]))
    }
}
