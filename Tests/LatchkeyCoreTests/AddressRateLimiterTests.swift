@testable import LatchkeyCore
import Testing

@Suite struct AddressRateLimiterTests {
    @Test func admitsUpToTheLimitThenSaysWhenToRetry() throws {
        let limiter = AddressRateLimiter(limit: 3, window: 60)
        for _ in 0..<3 { try limiter.admit("10.0.0.1", now: 1000) }
        #expect(throws: Throttled(retryAfter: 50)) { try limiter.admit("10.0.0.1", now: 1010) }
        try limiter.admit("10.0.0.2", now: 1010)  // another address has its own budget
    }

    @Test func theLockLiftsWhenTheWindowPasses() throws {
        let limiter = AddressRateLimiter(limit: 1, window: 60)
        try limiter.admit("a", now: 0)
        #expect(throws: Throttled.self) { try limiter.admit("a", now: 59) }
        try limiter.admit("a", now: 60)
    }

    @Test func aFloodOfDistinctAddressesStaysBounded() throws {
        let limiter = AddressRateLimiter(limit: 5, window: 60, maxTracked: 1000)
        for index in 0..<50_000 { try limiter.admit("address-\(index)", now: 100) }
        #expect(limiter.trackedCount <= 1000)
    }
}

@Suite struct AddressRateLimiterEvictionTests {
    @Test func aFullTableFreesRoomInBulkAndStillCountsRecentAddresses() throws {
        let limiter = AddressRateLimiter(limit: 2, window: 60, maxTracked: 100)
        for index in 0..<100 { try limiter.admit("old-\(index)", now: 0) }
        #expect(limiter.trackedCount == 100)
        try limiter.admit("new", now: 10)  // full: a tenth is freed at once
        #expect(limiter.trackedCount <= 91)
        try limiter.admit("new", now: 11)
        #expect(throws: Throttled.self) { try limiter.admit("new", now: 12) }
    }
}
