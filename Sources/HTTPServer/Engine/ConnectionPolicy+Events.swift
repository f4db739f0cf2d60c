/// The language between the event loop and `ConnectionPolicy`: what happened, and what
/// the loop is to do about it.
extension ConnectionPolicy {
    /// What happened on the connection. Payloads are what the policy cannot see itself
    /// (the loop's buffers); the clock comes with every event.
    enum Event: Equatable {
        /// A read returned bytes.
        case bytesRead
        /// A read returned end of stream: the peer half-closed. `streaming`: a stream is
        /// being sent; `holding`: output waits to be written or input to be answered.
        case peerClosed(streaming: Bool, holding: Bool)
        /// The buffered input is used up before a whole head or body.
        case inputExhausted
        /// The first byte of a request head is about to be parsed.
        case headBegan
        /// A head is complete and accepted, and its body follows.
        case bodyBegan
        case bodyReceived(Int)
        /// A handler, a stream or a file now produces the response.
        case responseUnderway
        /// A response is wholly queued (or a stream or file has ended, or was cut short:
        /// `keepAlive` false), with the verdict its head was written under.
        case responseQueued(keepAlive: Bool)
        /// A send attempt: `bytes` taken by the peer, `blocked` if output still waits;
        /// `unreadInput` is what is buffered unanswered.
        case sent(bytes: Int, blocked: Bool, unreadInput: Int)
        /// The output is all written and nothing more was queued.
        case outputDrained
        /// The loop's buffers changed size.
        case buffered(pendingOutput: Int, unreadInput: Int)
        /// The server is shutting down.
        case serverDraining(pendingOutput: Int)
        /// The clock moved on.
        case tick
    }

    /// What the loop does next, besides setting an interest.
    enum Step: Equatable {
        case none
        /// Parse and answer what is buffered (and, after a read, buffer what was read).
        case processInput
        /// A request timed out: answer 408 Request Timeout and close.
        case respondAndClose
        /// The policy now waits on `.closing`: drop the input and any unfinished request,
        /// and close once the last response is written.
        case beginClosing
        /// The last response is written: send FIN, and keep reading until the peer's.
        case shutDownWriting
        case close
    }

    /// What one event asks of the loop: at most one epoll interest and one step, so an
    /// answer is a few bytes on the stack, never an allocation.
    struct Actions: Equatable {
        /// The new epoll interest, when it changed.
        var interest: UInt32?
        var step: Step

        static let none = Actions(interest: nil, step: .none)
    }
}
