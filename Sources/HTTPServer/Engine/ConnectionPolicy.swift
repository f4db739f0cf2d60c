/// One connection's policy as a value: what it waits for, when that wait gives up, and
/// whether it is read and written. The event loop feeds it events with a reading of its
/// clock and carries out what it answers (an epoll interest, a 408, a close); it does no
/// I/O itself, so every rule is a unit test on a fake clock (`ConnectionPolicyTests`).
struct ConnectionPolicy {
    enum Wait: Equatable {
        /// Between requests: the idle timeout runs.
        case idle
        /// A request head has begun: the header timeout runs from its first byte.
        case head
        /// A body is arriving: its timeout runs from its start, extended by its bytes.
        case body(startedAt: UInt64, received: Int)
        /// A handler or a stream owns the connection; pipelined input waits its turn.
        case response
        /// The response that ends the connection is queued: input is drained and dropped
        /// for a while, so the peer reads that response instead of a reset.
        case closing
    }

    /// What a deadline that has passed asks for.
    enum Expiry: Equatable {
        /// A request was under way: answer 408 and close.
        case requestTimeout
        /// Nothing to answer: close.
        case close
    }

    /// Queued output above which a connection stops being read, whatever it is doing.
    static let outputHighWater = 1 << 20
    /// Unread input above which a connection stops being read.
    static let unreadInputCap = 64 * 1024
    static let lingerTime: UInt64 = 2_000_000_000

    let rules: ConnectionDeadlines
    private(set) var wait = Wait.idle
    /// When the current wait gives up; 0 for none (a response is being produced).
    private(set) var deadline: UInt64
    /// When a stalled write gives up; 0 while output flows.
    private(set) var writeDeadline: UInt64 = 0
    private(set) var readPaused = false
    private(set) var wantsWrite = false

    init(rules: ConnectionDeadlines, now: UInt64) {
        self.rules = rules
        deadline = now + rules.idleTimeout
    }

    /// The epoll interest that follows from the policy.
    var interest: UInt32 {
        (readPaused ? 0 : Epoll.readInterest) | (wantsWrite ? Epoll.writeInterest : 0)
    }

    var isBetweenRequests: Bool { wait == .idle || wait == .head }

    mutating func headBegan(now: UInt64) {
        wait = .head
        deadline = now + rules.headerTimeout
    }

    mutating func bodyBegan(now: UInt64) {
        wait = .body(startedAt: now, received: 0)
        deadline = rules.body(startedAt: now, received: 0)
    }

    mutating func bodyReceived(_ count: Int) {
        guard case .body(let start, let received) = wait else { return }
        wait = .body(startedAt: start, received: received + count)
        deadline = rules.body(startedAt: start, received: received + count)
    }

    mutating func responsePending() {
        wait = .response
        deadline = 0
    }

    mutating func awaitNextRequest(now: UInt64) {
        wait = .idle
        deadline = now + rules.idleTimeout
    }

    /// Reading resumes, whatever held it: the input is drained from now on.
    mutating func closing(now: UInt64) {
        wait = .closing
        deadline = now + Self.lingerTime
        readPaused = false
    }

    /// After a send attempt: the write deadline and write interest follow from whether
    /// output is still waiting and whether the peer took any of it.
    mutating func sent(_ bytes: Int, blocked: Bool, now: UInt64) {
        writeDeadline = rules.write(current: writeDeadline, now: now, sent: bytes, blocked: blocked)
        wantsWrite = blocked
    }

    /// Reading stops while the connection holds more than it may, in whatever phase:
    /// queued output past the high-water mark (a peer that sends and never reads) or
    /// unread input past its cap; or once the peer has half-closed (nothing more will
    /// come, and a readable EOF would wake the loop for ever). It resumes when they drain.
    mutating func applyBackpressure(pendingOutput: Int, unreadInput: Int, peerClosed: Bool) {
        guard wait != .closing else { return }
        readPaused = peerClosed || pendingOutput >= Self.outputHighWater || unreadInput > Self.unreadInputCap
    }

    /// What the clock says, if a deadline has passed.
    func expiry(now: UInt64) -> Expiry? {
        if writeDeadline != 0, now >= writeDeadline { return .close }
        guard deadline != 0, now >= deadline else { return nil }
        switch wait {
        case .head, .body: return .requestTimeout
        case .idle, .response, .closing: return .close
        }
    }
}
