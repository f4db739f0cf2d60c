import Testing
@testable import HTTPServer

/// One rule of the connection policy: from a connection brought to some state by earlier
/// events, one event, and the actions it must answer.
struct PolicyRow: Sendable, CustomTestStringConvertible {
    let rule: String
    /// Events that bring the connection to the state the rule is about, all at `start`.
    var before: [ConnectionPolicy.Event] = []
    let event: ConnectionPolicy.Event
    let step: ConnectionPolicy.Step
    /// The interest the event must set, or nil when it must leave it alone.
    var interest: UInt32? = nil
    var waitAfter: ConnectionPolicy.Wait? = nil

    var testDescription: String { rule }
}

/// Every rule of the connection policy, on a fake clock: events in, actions out, no
/// socket and no sleep. The socket tests check that the loop carries them out.
@Suite struct ConnectionPolicyTests {
    static let second: UInt64 = 1_000_000_000
    static let start = 1_000 * second
    static let rules = ConnectionDeadlines(ServerConfiguration(
        headerTimeout: .seconds(10), bodyTimeout: .seconds(30), bodyMinRate: 1024, idleTimeout: .seconds(60), writeTimeout: .seconds(30)
    ))
    static let readAndWrite = Epoll.readInterest | Epoll.writeInterest
    static let readOnly = Epoll.readInterest

    static func policy(after events: [ConnectionPolicy.Event] = [], at now: UInt64 = start) -> ConnectionPolicy {
        var policy = ConnectionPolicy(rules: rules, now: now)
        for event in events { _ = policy.handle(event, now: now) }
        return policy
    }

    static let keepAlive: [PolicyRow] = [
        PolicyRow(rule: "a response that keeps its connection waits for the next request",
                  before: [.headBegan, .responseUnderway], event: .responseQueued(keepAlive: true), step: .none, waitAfter: .idle),
        PolicyRow(rule: "a response that does not keep its connection begins closing",
                  before: [.headBegan], event: .responseQueued(keepAlive: false), step: .beginClosing, waitAfter: .closing),
        PolicyRow(rule: "after the peer half-closed, no response keeps the connection",
                  before: [.peerClosed(streaming: false, holding: true), .responseUnderway],
                  event: .responseQueued(keepAlive: true), step: .beginClosing, waitAfter: .closing),
        PolicyRow(rule: "while the server drains, no response keeps the connection",
                  before: [.headBegan, .responseUnderway, .serverDraining(pendingOutput: 0)],
                  event: .responseQueued(keepAlive: true), step: .beginClosing, waitAfter: .closing),
        PolicyRow(rule: "a closing connection reads again, whatever held its reading",
                  before: [.buffered(pendingOutput: ConnectionPolicy.outputHighWater, unreadInput: 0)],
                  event: .responseQueued(keepAlive: false), step: .beginClosing, interest: readOnly, waitAfter: .closing),
    ]

    static let pipelining: [PolicyRow] = [
        PolicyRow(rule: "bytes read between requests are processed", event: .bytesRead, step: .processInput),
        PolicyRow(rule: "bytes read while a handler runs are buffered behind it",
                  before: [.responseUnderway], event: .bytesRead, step: .processInput, waitAfter: .response),
        PolicyRow(rule: "bytes read while closing are dropped",
                  before: [.responseQueued(keepAlive: false)], event: .bytesRead, step: .none, waitAfter: .closing),
        PolicyRow(rule: "input left when the output drains is processed: no read event will come for it",
                  event: .sent(bytes: 100, blocked: false, unreadInput: 30), step: .processInput),
        PolicyRow(rule: "input parked behind blocked output is processed once it drains, and writing is no longer watched",
                  before: [.sent(bytes: 0, blocked: true, unreadInput: 0)],
                  event: .sent(bytes: 100, blocked: false, unreadInput: 0), step: .processInput, interest: readOnly),
        PolicyRow(rule: "output drained with nothing parked asks for nothing",
                  event: .sent(bytes: 100, blocked: false, unreadInput: 0), step: .none),
        PolicyRow(rule: "blocked output watches for writability",
                  event: .sent(bytes: 10, blocked: true, unreadInput: 5), step: .none, interest: readAndWrite),
        PolicyRow(rule: "a head begins on its first byte", event: .headBegan, step: .none, waitAfter: .head),
        PolicyRow(rule: "a handler's response has no read deadline while it is produced",
                  before: [.headBegan], event: .responseUnderway, step: .none, waitAfter: .response),
    ]

    static let endOfStream: [PolicyRow] = [
        PolicyRow(rule: "a peer that half-closes an idle connection is closed at once",
                  event: .peerClosed(streaming: false, holding: false), step: .close),
        PolicyRow(rule: "a peer that half-closes within a head with nothing buffered is closed at once",
                  before: [.headBegan], event: .peerClosed(streaming: false, holding: false), step: .close),
        PolicyRow(rule: "a peer that half-closes after pipelining requests has them answered first",
                  event: .peerClosed(streaming: false, holding: true), step: .processInput),
        PolicyRow(rule: "a peer that half-closes while a handler runs waits for its answer",
                  before: [.responseUnderway], event: .peerClosed(streaming: false, holding: false), step: .processInput),
        PolicyRow(rule: "a peer that half-closes during a stream is closed: a stream has no end to wait for",
                  before: [.responseUnderway], event: .peerClosed(streaming: true, holding: true), step: .close),
        PolicyRow(rule: "a peer that half-closes a closing connection is closed",
                  before: [.responseQueued(keepAlive: false)], event: .peerClosed(streaming: false, holding: true), step: .close),
        PolicyRow(rule: "a half-closed peer stops being read, so its end of stream does not wake the loop for ever",
                  before: [.peerClosed(streaming: false, holding: true)],
                  event: .buffered(pendingOutput: 0, unreadInput: 10), step: .none, interest: 0),
        PolicyRow(rule: "input used up while the peer may still send waits for more",
                  before: [.headBegan], event: .inputExhausted, step: .none, waitAfter: .head),
        PolicyRow(rule: "a head cut short by the peer's half-close ends the connection",
                  before: [.headBegan, .peerClosed(streaming: false, holding: true)],
                  event: .inputExhausted, step: .beginClosing, waitAfter: .closing),
        PolicyRow(rule: "a body cut short by the peer's half-close ends the connection",
                  before: [.bodyBegan, .peerClosed(streaming: false, holding: true)],
                  event: .inputExhausted, step: .beginClosing, waitAfter: .closing),
    ]

    static let drain: [PolicyRow] = [
        PolicyRow(rule: "the last response written, a closing connection sends its FIN and drains",
                  before: [.responseQueued(keepAlive: false)], event: .outputDrained, step: .shutDownWriting, waitAfter: .closing),
        PolicyRow(rule: "the last response written to a half-closed peer, the connection closes",
                  before: [.peerClosed(streaming: false, holding: true), .responseQueued(keepAlive: false)],
                  event: .outputDrained, step: .close),
        PolicyRow(rule: "output drained on a kept connection asks for nothing", event: .outputDrained, step: .none),
        PolicyRow(rule: "shutdown closes an idle connection with nothing to write",
                  event: .serverDraining(pendingOutput: 0), step: .close),
        PolicyRow(rule: "shutdown lets an idle connection finish writing its last response, then closes it",
                  event: .serverDraining(pendingOutput: 512), step: .beginClosing, waitAfter: .closing),
        PolicyRow(rule: "shutdown leaves a request being read to finish",
                  before: [.headBegan], event: .serverDraining(pendingOutput: 0), step: .none, waitAfter: .head),
        PolicyRow(rule: "shutdown leaves a response being produced to finish",
                  before: [.responseUnderway], event: .serverDraining(pendingOutput: 0), step: .none, waitAfter: .response),
    ]

    @Test(arguments: keepAlive + pipelining + endOfStream + drain)
    func rule(_ row: PolicyRow) {
        var policy = Self.policy(after: row.before)
        let actions = policy.handle(row.event, now: Self.start)
        #expect(actions == ConnectionPolicy.Actions(interest: row.interest, step: row.step))
        if let wait = row.waitAfter { #expect(policy.wait == wait) }
    }

    @Test func theKeepAliveVerdictIsTheRequestsUnlessThePeerClosedOrTheServerDrains() {
        #expect(Self.policy().keepsAlive(true))
        #expect(!Self.policy().keepsAlive(false))
        #expect(!Self.policy(after: [.peerClosed(streaming: false, holding: true)]).keepsAlive(true))
        #expect(!Self.policy(after: [.responseUnderway, .serverDraining(pendingOutput: 0)]).keepsAlive(true))
    }

    // MARK: The clock

    /// Ticks a policy at `now` and returns the step.
    static func tick(_ policy: inout ConnectionPolicy, at now: UInt64) -> ConnectionPolicy.Step {
        policy.handle(.tick, now: now).step
    }

    @Test func anIdleConnectionIsClosedSilentlyAfterTheIdleTimeout() {
        var policy = Self.policy()
        #expect(Self.tick(&policy, at: Self.start + 59 * Self.second) == .none)
        #expect(Self.tick(&policy, at: Self.start + 60 * Self.second) == .close)
    }

    @Test func aHeadHasTheHeaderTimeoutFromItsFirstByteThen408() {
        var policy = Self.policy()
        let first = 1_010 * Self.second
        _ = policy.handle(.headBegan, now: first)
        _ = policy.handle(.headBegan, now: first + 5 * Self.second)  // more of the same head: no new deadline
        #expect(Self.tick(&policy, at: first + 9 * Self.second) == .none)
        #expect(Self.tick(&policy, at: first + 10 * Self.second) == .respondAndClose)
    }

    @Test func aTrickledBodyTimesOutFromItsStartWhateverItsLatestByte() {
        var policy = Self.policy(after: [.bodyBegan])
        for _ in 0..<12 { _ = policy.handle(.bodyReceived(1), now: Self.start) }  // a byte every few seconds
        #expect(Self.tick(&policy, at: Self.start + 29 * Self.second) == .none)
        #expect(Self.tick(&policy, at: Self.start + 30 * Self.second) == .respondAndClose)
    }

    @Test func aBodyThatKeepsTheMinimumRateKeepsItsConnection() {
        var policy = Self.policy(after: [.bodyBegan, .bodyReceived(40 * 1024)])  // 40 KiB: 40 more seconds
        #expect(Self.tick(&policy, at: Self.start + 69 * Self.second) == .none)
        #expect(Self.tick(&policy, at: Self.start + 70 * Self.second) == .respondAndClose)
    }

    @Test func aResponseBeingProducedHasNoReadDeadline() {
        var policy = Self.policy(after: [.headBegan, .responseUnderway])
        #expect(Self.tick(&policy, at: 100_000 * Self.second) == .none)
    }

    @Test func afterAKeepAliveResponseTheIdleTimeoutRunsAgain() {
        var policy = Self.policy(after: [.responseUnderway])
        let answered = 2_000 * Self.second
        #expect(policy.handle(.responseQueued(keepAlive: true), now: answered) == .none)
        #expect(Self.tick(&policy, at: answered + 59 * Self.second) == .none)
        #expect(Self.tick(&policy, at: answered + 60 * Self.second) == .close)
    }

    @Test func aClosingConnectionLingersThenCloses() {
        var policy = Self.policy()
        let closing = 1_500 * Self.second
        _ = policy.handle(.responseQueued(keepAlive: false), now: closing)
        #expect(Self.tick(&policy, at: closing + ConnectionPolicy.lingerTime - 1) == .none)
        #expect(Self.tick(&policy, at: closing + ConnectionPolicy.lingerTime) == .close)
    }

    @Test func aPeerThatTakesNothingForTheWriteTimeoutIsDroppedAndOneThatTakesBytesIsNot() {
        var policy = Self.policy(after: [.responseUnderway])
        let start = Self.start
        #expect(policy.handle(.sent(bytes: 0, blocked: true, unreadInput: 0), now: start).interest == Self.readAndWrite)
        #expect(Self.tick(&policy, at: start + 29 * Self.second) == .none)
        _ = policy.handle(.sent(bytes: 4096, blocked: true, unreadInput: 0), now: start + 29 * Self.second)  // the peer took some
        #expect(Self.tick(&policy, at: start + 31 * Self.second) == .none, "the clock restarted")
        #expect(Self.tick(&policy, at: start + 59 * Self.second) == .close)
        #expect(policy.handle(.sent(bytes: 100, blocked: false, unreadInput: 0), now: start + 40 * Self.second).interest == Self.readOnly)
        #expect(Self.tick(&policy, at: start + 59 * Self.second) == .none, "output drained: no write deadline")
    }

    // MARK: Backpressure

    @Test(arguments: [[], [ConnectionPolicy.Event.headBegan], [.bodyBegan], [.responseUnderway]])
    func readingPausesInEveryPhaseOnceOutputOrInputPassesItsBoundAndResumesWhenTheyDrain(phase: [ConnectionPolicy.Event]) {
        var policy = Self.policy(after: phase)
        let pause = ConnectionPolicy.Actions(interest: 0, step: .none)
        let resume = ConnectionPolicy.Actions(interest: Self.readOnly, step: .none)
        #expect(policy.handle(.buffered(pendingOutput: ConnectionPolicy.outputHighWater, unreadInput: 0), now: Self.start) == pause,
                "output past the high-water mark")
        #expect(policy.handle(.buffered(pendingOutput: 0, unreadInput: 0), now: Self.start) == resume)
        #expect(policy.handle(.buffered(pendingOutput: 0, unreadInput: ConnectionPolicy.unreadInputCap + 1), now: Self.start) == pause,
                "unread input past its cap")
        #expect(policy.handle(.buffered(pendingOutput: 0, unreadInput: ConnectionPolicy.unreadInputCap), now: Self.start) == resume)
        #expect(policy.handle(.buffered(pendingOutput: 0, unreadInput: 0), now: Self.start) == .none, "no change, no interest")
    }

    @Test func aClosingConnectionIsReadToDrainItsInputWhateverItHolds() {
        var policy = Self.policy(after: [.responseQueued(keepAlive: false)])
        #expect(policy.handle(.buffered(pendingOutput: ConnectionPolicy.outputHighWater, unreadInput: 0), now: Self.start) == .none,
                "its input is dropped, so it costs nothing to read")
    }
}
