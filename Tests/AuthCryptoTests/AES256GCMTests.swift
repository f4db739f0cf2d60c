import AuthCrypto
import Testing
import TestSupport

@Suite("AES256GCM")
struct AES256GCMTests {
    /// Test Case 16 of McGrew and Viega, "The Galois/Counter Mode of Operation (GCM)"
    /// (the GCM specification NIST SP 800-38D builds on): AES-256, a 96-bit IV, associated data.
    static let key = [UInt8](hex: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")
    static let nonce = [UInt8](hex: "cafebabefacedbaddecaf888")
    static let plaintext = [UInt8](hex: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")
    static let associatedData = [UInt8](hex: "feedfacedeadbeeffeedfacedeadbeefabaddad2")
    static let ciphertext = [UInt8](hex: "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662")
    static let tag = [UInt8](hex: "76fc6ece0f4e1768cddf8853bb2d551b")

    @Test func opensTheSpecificationsTestCase() throws {
        let cipher = try #require(AES256GCMKey(Self.key))
        #expect(cipher.open(Self.nonce + Self.ciphertext + Self.tag, authenticating: Self.associatedData) == Self.plaintext)
    }

    @Test func refusesAnAlteredBoxOrOtherAssociatedData() throws {
        let cipher = try #require(AES256GCMKey(Self.key))
        let box = Self.nonce + Self.ciphertext + Self.tag
        for index in [0, 12, box.count - 1] {
            var altered = box
            altered[index] ^= 1
            #expect(cipher.open(altered, authenticating: Self.associatedData) == nil, "byte \(index) flipped")
        }
        #expect(cipher.open(box, authenticating: Self.associatedData.dropLast() + [0]) == nil)
        #expect(cipher.open(box, authenticating: []) == nil)
        #expect(cipher.open(Array(box.prefix(27)), authenticating: Self.associatedData) == nil, "shorter than a nonce and a tag")
        #expect(try #require(AES256GCMKey(Array(repeating: 1, count: 32))).open(box, authenticating: Self.associatedData) == nil, "another key")
    }

    @Test func sealsWithAFreshNonceAndOpensWhatItSealed() throws {
        let cipher = try #require(AES256GCMKey(Self.key))
        let first = cipher.seal(Self.plaintext, authenticating: Self.associatedData)
        let second = cipher.seal(Self.plaintext, authenticating: Self.associatedData)
        #expect(first.count == 12 + Self.plaintext.count + 16)
        #expect(first.prefix(12) != second.prefix(12), "a random nonce per message")
        #expect(cipher.open(first, authenticating: Self.associatedData) == Self.plaintext)
        #expect(cipher.open(cipher.seal([], authenticating: []), authenticating: []) == [], "an empty message")
    }

    @Test func takesOnlyA256BitKey() {
        #expect(AES256GCMKey(Array(repeating: 0, count: 31)) == nil)
        #expect(AES256GCMKey(Array(repeating: 0, count: 33)) == nil)
    }
}
