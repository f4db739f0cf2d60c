import AuthCrypto
import Foundation
import Testing

@Suite("Base64URL and Base64Unpadded")
struct Base64Tests {
    /// RFC 4648 §10, with the padding removed.
    static let rfc4648: [(String, String)] = [
        ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"),
        ("foob", "Zm9vYg"), ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
    ]

    @Test func encodesTheRFC4648Vectors() {
        for (plain, encoded) in Self.rfc4648 {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64Unpadded.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
            #expect(Base64Unpadded.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func theAlphabetsDifferOnlyInTheLastTwoSymbols() {
        let bytes: [UInt8] = [0xFB, 0xFF, 0xBF]
        #expect(Base64URL.encode(bytes) == "-_-_")
        #expect(Base64Unpadded.encode(bytes) == "+/+/")
    }

    @Test func roundTripsEveryLengthAndAgreesWithFoundation() {
        for length in 0...100 {
            let bytes = SecureRandom.bytes(length)
            let url = Base64URL.encode(bytes)
            let standard = Base64Unpadded.encode(bytes)
            let foundation = Data(bytes).base64EncodedString().replacingOccurrences(of: "=", with: "")
            #expect(standard == foundation)
            #expect(url == foundation.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_"))
            #expect(Base64URL.decode(url) == bytes)
            #expect(Base64Unpadded.decode(standard) == bytes)
        }
    }

    @Test(arguments: [
        "Zg==",       // padding
        "Zm9v=",      // stray padding
        "Z",          // a lone character cannot carry a byte
        "Zm9vY",      // same, after a full group
        "Zh",         // non-canonical: leftover bits set
        "Zm9vYmF z",  // whitespace
        "Zm9v\n",     // newline
        "Zm9v+w",     // standard alphabet symbol in URL input
        "Zm9v/w",
        "Zm9vé",      // non-ASCII
        "Zm9v.",      // separator
    ])
    func base64URLRejects(_ input: String) {
        #expect(Base64URL.decode(input) == nil)
    }

    /// Every byte that is not one of the 64 symbols, at every place of a full group and of
    /// the short groups at the end, refuses the whole input.
    @Test func everyByteOutsideTheAlphabetIsRefusedAnywhere() {
        let symbols = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let valid = Array("Zm9vYmFyYg".utf8)  // "foobarb": two full groups and a group of two
        #expect(valid.withUnsafeBufferPointer { Base64URL.decode($0) } == Array("foobarb".utf8))
        for byte in UInt8.min...UInt8.max where !symbols.contains(byte) {
            for place in valid.indices {
                var input = valid
                input[place] = byte
                #expect(input.withUnsafeBufferPointer { Base64URL.decode($0) } == nil, "byte \(byte) at \(place)")
            }
        }
    }

    @Test(arguments: ["Zg==", "Z", "Zh", "Zm9v-w", "Zm9v_w", "Zm 9v", "$Zm9v"])
    func base64UnpaddedRejects(_ input: String) {
        #expect(Base64Unpadded.decode(input) == nil)
    }
}
