@testable import LatchkeyCore
import Testing

@Suite struct QuotedPrintableTests {
    /// RFC 2045's decoding, to check that encoding loses nothing.
    private func decode(_ text: String) -> String {
        var bytes: [UInt8] = []
        let input = Array(text.utf8)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "=") {
                if input[index + 1] == 0x0D { index += 3; continue }  // soft break
                bytes.append(UInt8(String(decoding: input[index + 1...index + 2], as: UTF8.self), radix: 16)!)
                index += 3
            } else {
                bytes.append(input[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func linesStay7BitAndShortAndDecodeToTheOriginal() {
        let original = "Grüße, \(String(repeating: "long-line ", count: 30))end = here\nsecond line with trailing space \nhttps://example.com/reset-password?token=abc_DEF-123"
        let encoded = QuotedPrintable.encode(original)
        #expect(encoded.utf8.allSatisfy { $0 < 0x80 })
        for line in encoded.split(separator: "\r\n", omittingEmptySubsequences: false) {
            #expect(line.utf8.count <= 76, "\(line)")
        }
        #expect(decode(encoded) == original.replacing("\n", with: "\r\n"))
        #expect(encoded.contains("Gr=C3=BC=C3=9Fe"))
        #expect(encoded.contains("end =3D here"))
        #expect(encoded.contains("space=20\r\n"), "a space before a line break is encoded")
    }
}
