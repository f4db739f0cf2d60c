import Testing
@testable import HTTPServer

/// The timing rules, on a fake clock (nanoseconds): no socket, no sleep.
@Suite struct ConnectionDeadlinesTests {
    static let second: UInt64 = 1_000_000_000
    static let deadlines = ConnectionDeadlines(ServerConfiguration(bodyTimeout: .seconds(30), bodyMinRate: 1024, writeTimeout: .seconds(30)))

    @Test func aBodyHasItsTimeoutFromItsStartNotFromItsLatestByte() {
        let start = 100 * Self.second
        #expect(Self.deadlines.body(startedAt: start, received: 0) == start + 30 * Self.second)
        // A byte every 5 s for a minute buys nothing: 12 bytes are far below 1 KiB/s.
        #expect(Self.deadlines.body(startedAt: start, received: 12) == start + 30 * Self.second)
    }

    @Test func everyBodyMinRateBytesBuyOneMoreSecond() {
        let start = 7 * Self.second
        #expect(Self.deadlines.body(startedAt: start, received: 1023) == start + 30 * Self.second)
        #expect(Self.deadlines.body(startedAt: start, received: 1024) == start + 31 * Self.second)
        #expect(Self.deadlines.body(startedAt: start, received: 5 * 1024 * 1024) == start + (30 + 5 * 1024) * Self.second)
    }

    @Test func theWriteDeadlineStartsWhenOutputWaitsAndRestartsWhenThePeerTakesBytes() {
        let d = Self.deadlines
        #expect(d.write(current: 0, now: 10 * Self.second, sent: 0, blocked: true) == 40 * Self.second, "starts when output first waits")
        #expect(d.write(current: 40 * Self.second, now: 20 * Self.second, sent: 0, blocked: true) == 40 * Self.second,
                "a peer that takes nothing does not move it")
        #expect(d.write(current: 40 * Self.second, now: 39 * Self.second, sent: 65_536, blocked: true) == 69 * Self.second,
                "a peer that takes bytes restarts it")
        #expect(d.write(current: 40 * Self.second, now: 39 * Self.second, sent: 10, blocked: false) == 0, "no waiting output, no deadline")
    }
}
