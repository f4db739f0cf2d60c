/// One connection's policy as a state machine: the event loop tells it what happened, with
/// a reading of its clock, and carries out the `Actions` it answers (an epoll interest, a
/// 408, a half-close, a close). It does no I/O itself, so every keep-alive, pipelining,
/// drain and timeout rule is a row of events → actions on a fake clock
/// (`ConnectionPolicyTests`).
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
    /// The peer half-closed: what is buffered is still answered, then the connection closes.
    private(set) var peerClosed = false
    /// The server is shutting down: no response keeps its connection open.
    private(set) var draining = false

    init(rules: ConnectionDeadlines, now: UInt64) {
        self.rules = rules
        deadline = now + rules.idleTimeout
    }

    /// The epoll interest that follows from the policy.
    var interest: UInt32 {
        (readPaused ? 0 : Epoll.readInterest) | (wantsWrite ? Epoll.writeInterest : 0)
    }

    /// Whether a response may keep its connection open: the request asked for it, the peer
    /// has not half-closed and the server is not shutting down. The loop writes the
    /// response's `Connection` field from this, and `responseQueued` applies it again,
    /// for a stream or file that ends after either changed.
    func keepsAlive(_ requested: Bool) -> Bool {
        requested && !peerClosed && !draining
    }

    // Inlined, with the loop's `handle`, where each event is raised, so the switch can fold
    // to the event's case: as calls, each a switch over every event, the funnel cost some
    // 700 instructions a request (2% of GET /healthz). The compiler still calls this one
    // from the loop's largest functions (`flush`, `process`), about 250 a request.
    @inline(__always)
    mutating func handle(_ event: Event, now: UInt64) -> Actions {
        let interestBefore = interest
        let step = apply(event, now: now)
        let interestAfter = interest
        return Actions(interest: interestAfter == interestBefore ? nil : interestAfter, step: step)
    }

    @inline(__always)
    private mutating func apply(_ event: Event, now: UInt64) -> Step {
        switch event {
        case .bytesRead:
            // A closing connection's input is read only to be dropped.
            return wait == .closing ? .none : .processInput
        case .peerClosed(let streaming, let holding):
            if wait == .closing { return .close }
            peerClosed = true
            // A stream has no end the peer could still wait for; an idle connection has
            // nothing left to answer. Otherwise what is buffered is answered first.
            if streaming || !holding && (wait == .idle || wait == .head) { return .close }
            return .processInput
        case .inputExhausted:
            // No more bytes will complete the request: its connection ends.
            guard peerClosed else { return .none }
            return beginClosing(now: now)
        case .headBegan:
            if wait == .idle {
                wait = .head
                deadline = now + rules.headerTimeout
            }
            return .none
        case .bodyBegan:
            wait = .body(startedAt: now, received: 0)
            deadline = rules.body(startedAt: now, received: 0)
            return .none
        case .bodyReceived(let count):
            if case .body(let start, let received) = wait {
                wait = .body(startedAt: start, received: received + count)
                deadline = rules.body(startedAt: start, received: received + count)
            }
            return .none
        case .responseUnderway:
            wait = .response
            deadline = 0
            return .none
        case .responseQueued(let keepAlive):
            guard keepsAlive(keepAlive) else { return beginClosing(now: now) }
            wait = .idle
            deadline = now + rules.idleTimeout
            return .none
        case .sent(let bytes, let blocked, let unreadInput):
            // Input parked behind the high-water mark waits for the output to drain, even
            // when it drained without ever blocking: no read event will come for it.
            let parked = wantsWrite || unreadInput > 0
            writeDeadline = rules.write(current: writeDeadline, now: now, sent: bytes, blocked: blocked)
            wantsWrite = blocked
            return !blocked && parked ? .processInput : .none
        case .outputDrained:
            guard wait == .closing else { return .none }
            return peerClosed ? .close : .shutDownWriting
        case .buffered(let pendingOutput, let unreadInput):
            applyBackpressure(pendingOutput: pendingOutput, unreadInput: unreadInput)
            return .none
        case .serverDraining(let pendingOutput):
            draining = true
            // Only a connection between requests is ended now; one that is answering ends
            // after its response (see `keepsAlive`).
            guard wait == .idle else { return .none }
            return pendingOutput == 0 ? .close : beginClosing(now: now)
        case .tick:
            return expiry(now: now)
        }
    }

    /// Reading resumes, whatever held it: the input is drained from now on.
    private mutating func beginClosing(now: UInt64) -> Step {
        wait = .closing
        deadline = now + Self.lingerTime
        readPaused = false
        return .beginClosing
    }

    /// Reading stops while the connection holds more than it may, in whatever phase:
    /// queued output past the high-water mark (a peer that sends and never reads) or
    /// unread input past its cap; or once the peer has half-closed (nothing more will
    /// come, and a readable EOF would wake the loop for ever). It resumes when they drain.
    private mutating func applyBackpressure(pendingOutput: Int, unreadInput: Int) {
        guard wait != .closing else { return }
        readPaused = peerClosed || pendingOutput >= Self.outputHighWater || unreadInput > Self.unreadInputCap
    }

    /// What the clock says, if a deadline has passed: a request under way is answered
    /// 408, anything else closes silently.
    private func expiry(now: UInt64) -> Step {
        if writeDeadline != 0, now >= writeDeadline { return .close }
        guard deadline != 0, now >= deadline else { return .none }
        switch wait {
        case .head, .body: return .respondAndClose
        case .idle, .response, .closing: return .close
        }
    }
}
