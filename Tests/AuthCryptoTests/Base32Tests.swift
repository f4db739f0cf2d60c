import AuthCrypto
import TestSupport
import Testing

@Suite("Base32 (RFC 4648 §6)")
struct Base32Tests {
    /// RFC 4648 §10, with and without its padding.
    static let rfc4648: [(plain: String, padded: String)] = [
        ("", ""), ("f", "MY======"), ("fo", "MZXQ===="), ("foo", "MZXW6==="),
        ("foob", "MZXW6YQ="), ("fooba", "MZXW6YTB"), ("foobar", "MZXW6YTBOI======"),
    ]

    private static func unpadded(_ text: String) -> String {
        String(text.prefix { $0 != "=" })
    }

    @Test func encodesTheRFC4648VectorsWithoutPadding() {
        for (plain, padded) in Self.rfc4648 {
            #expect(Base32.encode(Array(plain.utf8)) == Self.unpadded(padded), "\(plain)")
        }
    }

    @Test func decodesTheRFC4648VectorsPaddedUnpaddedAndInLowerCase() throws {
        for (plain, padded) in Self.rfc4648 {
            #expect(try Base32.decode(padded) == Array(plain.utf8), "\(padded)")
            #expect(try Base32.decode(Self.unpadded(padded)) == Array(plain.utf8), "\(padded)")
            #expect(try Base32.decode(padded.lowercased()) == Array(plain.utf8), "\(padded)")
        }
        #expect(try Base32.decode("mZxW6yTbOi") == Array("foobar".utf8), "mixed case")
    }

    @Test func roundTripsEveryLength() throws {
        for length in 0...64 {
            let bytes = SecureRandom.bytes(length)
            #expect(try Base32.decode(Base32.encode(bytes)) == bytes, "\(length) bytes")
        }
    }

    @Test func encodesEveryByteValue() throws {
        let bytes = (0...255).map(UInt8.init)
        let encoded = Base32.encode(bytes)
        #expect(encoded.utf8.allSatisfy { Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8).contains($0) })
        #expect(try Base32.decode(encoded) == bytes)
    }

    @Test func refusesCharactersOutsideTheAlphabet() {
        #expect(throws: Base32Error.invalidCharacter(offset: 2)) { try Base32.decode("MZ1W6") }   // '1': base32hex, not ours
        #expect(throws: Base32Error.invalidCharacter(offset: 4)) { try Base32.decode("MZXW8===") }
        #expect(throws: Base32Error.invalidCharacter(offset: 4)) { try Base32.decode("MZXW 6YTB") }
        #expect(throws: Base32Error.invalidCharacter(offset: 0)) { try Base32.decode("-ZXW6YTB") }
        #expect(throws: Base32Error.invalidCharacter(offset: 0)) { try Base32.decode([0xC3, 0x9C]) }
        #expect(throws: Base32Error.invalidCharacter(offset: 4)) { try Base32.decode("MY==MY==") }
        #expect(throws: Base32Error.invalidCharacter(offset: 8)) { try Base32.decode("MZXW6YTB\n") }
    }

    @Test func refusesLengthsNoEncodingHas() {
        #expect(throws: Base32Error.impossibleLength(1)) { try Base32.decode("M") }
        #expect(throws: Base32Error.impossibleLength(3)) { try Base32.decode("MZX") }
        #expect(throws: Base32Error.impossibleLength(6)) { try Base32.decode("MZXW6Y") }
        #expect(throws: Base32Error.impossibleLength(9)) { try Base32.decode("MZXW6YTBO") }
        #expect(throws: Base32Error.impossibleLength(1)) { try Base32.decode("M=======") }
    }

    @Test func refusesPaddingThatDoesNotCompleteTheGroup() {
        #expect(throws: Base32Error.wrongPadding) { try Base32.decode("MY=") }
        #expect(throws: Base32Error.wrongPadding) { try Base32.decode("MY=======") }
        #expect(throws: Base32Error.wrongPadding) { try Base32.decode("MZXW6YTB========") }
        #expect(throws: Base32Error.wrongPadding) { try Base32.decode("========") }
    }

    /// "MZ" and "MY" both start with the byte `f`; only "MY" is what an encoder writes.
    @Test func refusesStrayBitsAfterTheLastByte() {
        #expect(throws: Base32Error.nonZeroTrailingBits) { try Base32.decode("MZ") }
        #expect(throws: Base32Error.nonZeroTrailingBits) { try Base32.decode("MZXW6YTBOJ") }
    }
}
