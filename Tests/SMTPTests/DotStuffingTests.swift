@testable import SMTP
import Testing

@Suite struct DotStuffingTests {
    private func stuffed(_ text: String) -> String {
        String(decoding: dotStuffed(Array(text.utf8)), as: UTF8.self)
    }

    @Test func aLeadingDotIsDoubledSoNoLineEndsTheMessage() {
        #expect(stuffed(".\r\n.hidden\r\nmid.dle\r\n") == "..\r\n..hidden\r\nmid.dle\r\n.\r\n")
        #expect(stuffed(".") == "..\r\n.\r\n")
    }

    @Test func everyLineBreakBecomesCRLFAndTheEndIsAdded() {
        #expect(stuffed("a\nb\rc\r\nd") == "a\r\nb\r\nc\r\nd\r\n.\r\n")
        #expect(stuffed("a\n.b") == "a\r\n..b\r\n.\r\n")
        #expect(stuffed("") == ".\r\n")
    }
}
