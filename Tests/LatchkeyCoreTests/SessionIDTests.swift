@testable import LatchkeyCore
import Testing

/// Session ids begin with their time (`RandomID.makeTimeOrdered`), so each new session goes
/// in at the end of the sessions' index; the rest stays random, and the shape stays the
/// one refresh tokens carry.
@Suite struct SessionIDTests {
    @Test func anIdIsThirtyTwoLowercaseHexDigitsLedByItsMilliseconds() {
        let id = RandomID.makeTimeOrdered(milliseconds: 0x0123_4567_89AB)
        #expect(id.utf8.count == 32)
        #expect(id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        #expect(id.hasPrefix("0123456789ab"))
    }

    @Test func laterSessionsSortAfterEarlierOnesAndNoTwoAreTheSame() {
        let ids = (0..<1_000).map { RandomID.makeTimeOrdered(milliseconds: 1_764_000_000_000 + UInt64($0 / 10)) }
        #expect(Set(ids).count == ids.count, "the 80 random bits tell apart ids of one millisecond")
        for (earlier, later) in zip(ids, ids.dropFirst()) where earlier.prefix(12) != later.prefix(12) {
            #expect(earlier < later)
        }
    }
}
