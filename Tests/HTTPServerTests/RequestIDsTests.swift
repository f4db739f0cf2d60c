@testable import HTTPServer
import Testing

/// The ids a loop makes for requests that bring none: unique, naming the loop, and a
/// counter in lowercase hex, as logs and `X-Request-Id` have shown them.
@Suite struct RequestIDsTests {
    @Test func idsNameTheLoopAndCountInHex() throws {
        var ids = RequestIDs(loopIndex: 3)
        let made = (1...300).map { _ in ids.next() }
        let parts = made[0].split(separator: "-")
        #expect(parts.count == 3)
        #expect(parts[0].utf8.count == 8 && parts[0].utf8.allSatisfy { Self.isLowerHex($0) })
        #expect(parts[1] == "3")
        let prefix = "\(parts[0])-3-"
        #expect(made.map { String($0.dropFirst(prefix.count)) } == (1...300).map { String($0, radix: 16) })
        #expect(made.allSatisfy { $0.hasPrefix(prefix) })
        #expect(Set(made).count == made.count)
    }

    @Test func eachLoopHasItsOwnPrefix() {
        var first = RequestIDs(loopIndex: 0)
        var second = RequestIDs(loopIndex: 1)
        #expect(first.next() != second.next())
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
    }
}
