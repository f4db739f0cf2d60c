import Testing
@testable import HTTPServer

/// Every rule of the connection policy, on a fake clock: events in, decisions out, no
/// socket and no sleep. The socket tests check that the loop carries them out.
@Suite struct ConnectionPolicyTests {
    static let second: UInt64 = 1_000_000_000
    static let rules = ConnectionDeadlines(ServerConfiguration(
        headerTimeout: .seconds(10), bodyTimeout: .seconds(30), bodyMinRate: 1024, idleTimeout: .seconds(60), writeTimeout: .seconds(30)
    ))

    static func policy(at now: UInt64 = 1_000 * second) -> ConnectionPolicy {
        ConnectionPolicy(rules: rules, now: now)
    }

    @Test func anIdleConnectionIsClosedSilentlyAfterTheIdleTimeout() {
        let start = 1_000 * Self.second
        let policy = Self.policy(at: start)
        #expect(policy.expiry(now: start + 59 * Self.second) == nil)
        #expect(policy.expiry(now: start + 60 * Self.second) == .close)
    }

    @Test func aHeadHasTheHeaderTimeoutFromItsFirstByteThen408() {
        var policy = Self.policy()
        let first = 1_010 * Self.second
        policy.headBegan(now: first)
        #expect(policy.expiry(now: first + 9 * Self.second) == nil)
        #expect(policy.expiry(now: first + 10 * Self.second) == .requestTimeout)
    }

    @Test func aTrickledBodyTimesOutFromItsStartWhateverItsLatestByte() {
        var policy = Self.policy()
        let start = 1_000 * Self.second
        policy.bodyBegan(now: start)
        for _ in 0..<12 { policy.bodyReceived(1) }  // a byte every few seconds
        #expect(policy.expiry(now: start + 29 * Self.second) == nil)
        #expect(policy.expiry(now: start + 30 * Self.second) == .requestTimeout)
    }

    @Test func aBodyThatKeepsTheMinimumRateKeepsItsConnection() {
        var policy = Self.policy()
        let start = 1_000 * Self.second
        policy.bodyBegan(now: start)
        policy.bodyReceived(40 * 1024)  // 40 KiB: 40 more seconds
        #expect(policy.expiry(now: start + 69 * Self.second) == nil)
        #expect(policy.expiry(now: start + 70 * Self.second) == .requestTimeout)
    }

    @Test func aResponseBeingProducedHasNoReadDeadline() {
        var policy = Self.policy()
        policy.headBegan(now: 1_000 * Self.second)
        policy.responsePending()
        #expect(policy.expiry(now: 100_000 * Self.second) == nil)
    }

    @Test func afterAKeepAliveResponseTheIdleTimeoutRunsAgain() {
        var policy = Self.policy()
        policy.responsePending()
        let answered = 2_000 * Self.second
        policy.awaitNextRequest(now: answered)
        #expect(policy.wait == .idle)
        #expect(policy.expiry(now: answered + 60 * Self.second) == .close)
    }

    @Test func aClosingConnectionLingersThenCloses() {
        var policy = Self.policy()
        let closing = 1_500 * Self.second
        policy.closing(now: closing)
        #expect(policy.expiry(now: closing + ConnectionPolicy.lingerTime - 1) == nil)
        #expect(policy.expiry(now: closing + ConnectionPolicy.lingerTime) == .close)
    }

    @Test func aPeerThatTakesNothingForTheWriteTimeoutIsDroppedAndOneThatTakesBytesIsNot() {
        var policy = Self.policy()
        let start = 1_000 * Self.second
        policy.responsePending()
        policy.sent(0, blocked: true, now: start)
        #expect(policy.wantsWrite)
        #expect(policy.expiry(now: start + 29 * Self.second) == nil)
        policy.sent(4096, blocked: true, now: start + 29 * Self.second)  // the peer took some
        #expect(policy.expiry(now: start + 31 * Self.second) == nil, "the clock restarted")
        #expect(policy.expiry(now: start + 59 * Self.second) == .close)
        policy.sent(100, blocked: false, now: start + 40 * Self.second)
        #expect(!policy.wantsWrite)
        #expect(policy.expiry(now: start + 59 * Self.second) == nil, "output drained: no write deadline")
    }

    @Test(arguments: [ConnectionPolicy.Wait.idle, .head, .body(startedAt: 0, received: 0), .response])
    func readingPausesInEveryPhaseOnceOutputOrInputPassesItsBoundAndResumesWhenTheyDrain(phase: ConnectionPolicy.Wait) {
        var policy = Self.policy()
        switch phase {
        case .head: policy.headBegan(now: 0)
        case .body: policy.bodyBegan(now: 0)
        case .response: policy.responsePending()
        default: break
        }
        policy.applyBackpressure(pendingOutput: ConnectionPolicy.outputHighWater, unreadInput: 0, peerClosed: false)
        #expect(policy.readPaused, "output past the high-water mark")
        #expect(policy.interest & Epoll.readInterest == 0)
        policy.applyBackpressure(pendingOutput: 0, unreadInput: 0, peerClosed: false)
        #expect(!policy.readPaused)
        policy.applyBackpressure(pendingOutput: 0, unreadInput: ConnectionPolicy.unreadInputCap + 1, peerClosed: false)
        #expect(policy.readPaused, "unread input past its cap")
        policy.applyBackpressure(pendingOutput: 0, unreadInput: 10, peerClosed: true)
        #expect(policy.readPaused, "the peer half-closed: nothing more to read")
    }

    @Test func aClosingConnectionIsReadToDrainItsInputWhateverHeldIt() {
        var policy = Self.policy()
        policy.applyBackpressure(pendingOutput: ConnectionPolicy.outputHighWater, unreadInput: 0, peerClosed: false)
        policy.closing(now: 0)
        #expect(!policy.readPaused)
        policy.applyBackpressure(pendingOutput: ConnectionPolicy.outputHighWater, unreadInput: 0, peerClosed: false)
        #expect(!policy.readPaused, "its input is dropped, so it costs nothing to read")
    }
}
