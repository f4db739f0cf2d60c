@testable import LatchkeyCore
import Testing

@Suite struct RetiredRefreshTokensTests {
    private func hash(_ byte: UInt8) -> [UInt8] { Array(repeating: byte, count: 32) }

    @Test func survivesTheRoundTripThroughItsBlob() {
        let list = RetiredRefreshTokens().retiring(hash(1), at: 1_795_000_000).retiring(hash(2), at: -5)
        #expect(RetiredRefreshTokens(blob: list.blob) == list)
        #expect(list.entry(for: hash(1))?.retiredAt == 1_795_000_000)
        #expect(list.entries.first?.hash == hash(2), "newest first")
        #expect(list.entry(for: hash(3)) == nil)
    }

    @Test func keepsOnlyTheNewestSixteen() {
        var list = RetiredRefreshTokens()
        for byte in 0..<20 { list = list.retiring(hash(UInt8(byte)), at: Int64(byte)) }
        #expect(list.entries.count == RetiredRefreshTokens.capacity)
        #expect(list.entry(for: hash(19)) != nil)
        #expect(list.entry(for: hash(3)) == nil, "the oldest are forgotten")
        #expect(list.blob.count == 16 * 40)
    }
}
