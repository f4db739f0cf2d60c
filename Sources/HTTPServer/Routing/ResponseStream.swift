import Synchronization

/// The body of a streamed (chunked) response, written from any thread while the
/// connection stays open: server-sent events, for example. Costs the connection a few
/// queued chunks, never a thread.
///
/// A reader too slow for what is written is dropped: once more than `highWater` bytes
/// wait (in this queue or in the connection's output, because the client's socket is
/// full), the connection is closed rather than allowed to grow.
public final class ResponseStream: Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        var queuedBytes = 0
        var overflowed = false
        var finished = false
        var closed = false
        var wake: (@Sendable () -> Void)?
        var closeHandlers: [@Sendable () -> Void] = []
    }

    private let state = Mutex(State())
    public let highWater: Int
    /// Set once, on the loop, when the stream starts answering on a connection; read by
    /// `broadcast` without a lock.
    private let attached = AtomicLazyReference<StreamAttachment>()

    public init(highWater: Int = 1 << 20) {
        self.highWater = highWater
    }

    /// Queues a chunk; false once the stream is closed (client gone, server stopping) or
    /// its reader fell `highWater` bytes behind (the connection is then closed).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return !isClosed }
        let wake: (@Sendable () -> Void)?? = state.withLock { state in
            guard !state.closed, !state.finished, !state.overflowed else { return .none }
            if state.queuedBytes + bytes.count > highWater {
                state.overflowed = true
                state.chunks.removeAll()
                return .some(state.wake)  // the loop closes the connection
            }
            state.chunks.append(bytes)
            state.queuedBytes += bytes.count
            return .some(state.wake)
        }
        guard let wake else { return false }
        wake?()
        return !state.withLock { $0.overflowed }
    }

    /// Ends the body; the connection goes on with the next request.
    public func finish() {
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            guard !state.finished else { return nil }
            state.finished = true
            return state.wake
        }
        wake?()
    }

    /// Runs `handler` once when the stream ends for any reason: finished, the client went
    /// away, or the server is shutting down. Runs at once if it already ended.
    public func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow = state.withLock { state in
            if state.closed { return true }
            state.closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    public var isClosed: Bool { state.withLock { $0.closed } }

    // MARK: Engine side

    /// Connects the stream to its event loop; called on that loop once the response head
    /// is queued.
    func attach(to loop: EventLoop, fd: Int32, connectionID: UInt64) {
        let wake: @Sendable () -> Void = { loop.post(.streamReady(fd: fd, connectionID: connectionID)) }
        let pending = state.withLock { state in
            state.wake = wake
            return !state.chunks.isEmpty || state.finished
        }
        if pending { wake() }
        // Only now may a broadcast write to the connection directly: its job comes after
        // the one that takes what was queued before, so it cannot overtake it.
        _ = attached.storeIfNil(StreamAttachment(loop: loop, fd: fd, connectionID: connectionID))
    }

    /// Where the stream is written, once it answers on a connection.
    var attachment: StreamAttachment? { attached.load() }

    /// Takes what the producer queued since the last call; `overflowed` when the reader
    /// fell too far behind.
    func take() -> (chunks: [[UInt8]], finished: Bool, overflowed: Bool) {
        state.withLock { state in
            defer {
                state.chunks.removeAll()
                state.queuedBytes = 0
            }
            return (state.chunks, state.finished, state.overflowed)
        }
    }

    /// Marks the stream closed and runs the close handlers exactly once.
    func close() {
        let handlers = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.closed else { return [] }
            state.closed = true
            state.wake = nil
            defer { state.closeHandlers.removeAll() }
            return state.closeHandlers
        }
        for handler in handlers { handler() }
    }
}
