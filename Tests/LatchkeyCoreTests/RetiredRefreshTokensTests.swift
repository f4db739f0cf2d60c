@testable import LatchkeyCore
import Testing

@Suite struct RetiredRefreshTokensTests {
    private func hash(_ byte: UInt8) -> [UInt8] { Array(repeating: byte, count: 32) }

    @Test func survivesTheRoundTripThroughItsBlob() {
        let list = RetiredRefreshTokens().retiring(hash(1), at: 1_795_000_000).retiring(hash(2), at: 4_000_000_000)
        let stored = RetiredRefreshTokens(blob: list.blob)
        #expect(stored == list)
        #expect(stored.retiredAt(hash(1)) == 1_795_000_000)
        #expect(stored.retiredAt(hash(2)) == 4_000_000_000)
        #expect(stored.retiredAt(hash(3)) == nil)
        #expect(Array(list.blob.prefix(16)) == Array(hash(2).prefix(16)), "newest first")
    }

    @Test func keepsOnlyTheNewestSixteen() {
        var list = RetiredRefreshTokens()
        for byte in 0..<20 { list = list.retiring(hash(UInt8(byte)), at: Int64(byte)) }
        #expect(list.count == RetiredRefreshTokens.capacity)
        #expect(list.retiredAt(hash(19)) == 19)
        #expect(list.retiredAt(hash(3)) == nil, "the oldest are forgotten")
        #expect(list.blob.count == 16 * 20)
    }

    @Test func aDamagedBlobIsReadAsFarAsItIsWhole() {
        let list = RetiredRefreshTokens().retiring(hash(7), at: 42)
        #expect(RetiredRefreshTokens(blob: list.blob + [1, 2, 3]).retiredAt(hash(7)) == 42)
    }
}
