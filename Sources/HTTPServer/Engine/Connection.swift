/// One client connection, owned by exactly one event loop and touched only on its thread.
final class Connection {
    enum Phase {
        /// Between requests; the idle deadline runs.
        case idle
        /// Part of a request head has arrived; the header deadline runs.
        case head
        /// Reading the body of `pending`; the body deadline runs (see `ConnectionDeadlines`).
        case body
        /// An off-loop handler is working; input waits in the buffer (pipelining keeps order).
        case handling(ResponseWriter.Context)
        /// A chunked response is being produced; input waits.
        case streaming(ResponseStream, ResponseWriter.Context)
        /// The response that ends this connection is being flushed, or was, and unread
        /// input is drained so the peer sees that response instead of a reset.
        case closing
    }

    /// A request whose head is routed and whose body is still arriving.
    struct PendingRequest {
        var head: RequestHead
        var target: (path: String, query: String?)
        var route: Route
        var parameters: [String: String]
        /// How the response will be framed: version, HEAD, keep-alive, request id.
        var context: ResponseWriter.Context
        var body: [UInt8] = []
        var remaining: Int
        var chunked: ChunkedDecoder?
        /// When the body began, and how many of its bytes (as sent) have arrived since.
        var bodyStartedAt: UInt64 = 0
        var bodyBytesReceived = 0
    }

    let fd: Int32
    let id: UInt64
    let remoteAddress: String

    var input: [UInt8] = []
    var inputStart = 0
    var output: [UInt8] = []
    var outputStart = 0

    var parser: HeadParser
    var phase: Phase = .idle
    var pending: PendingRequest?
    /// When the current read-side wait (idle, head, body, closing) gives up; 0 for none.
    var deadline: UInt64 = 0
    /// When a stalled write gives up; 0 while output flows.
    var writeDeadline: UInt64 = 0
    /// The peer half-closed: what is buffered is still answered, then the connection closes.
    var peerClosed = false
    /// Set by `EventLoop.close`: the descriptor is gone (its number may already belong to
    /// another connection or file), so nothing may read, write or re-register it.
    var isClosed = false
    /// Counted against its address's connection cap.
    var countedPerAddress = false
    var wantsWrite = false
    var readPaused = false

    init(fd: Int32, id: UInt64, remoteAddress: String, limits: HeadLimits) {
        self.fd = fd
        self.id = id
        self.remoteAddress = remoteAddress
        self.parser = HeadParser(limits: limits)
    }

    var unreadCount: Int { input.count - inputStart }
    var pendingOutput: Int { output.count - outputStart }

    func consumeInput(_ count: Int) {
        inputStart += count
        if inputStart == input.count {
            // Idle keep-alive connections should hold no buffer at all.
            input = []
            inputStart = 0
        }
    }

    func appendInput(_ bytes: UnsafeBufferPointer<UInt8>) {
        if inputStart > 0, inputStart >= input.count / 2 {
            input.removeFirst(inputStart)
            inputStart = 0
        }
        input.append(contentsOf: bytes)
    }

    /// A handler or stream owns the connection; pipelined input waits its turn.
    var isWaitingOnResponse: Bool {
        switch phase {
        case .handling, .streaming: true
        default: false
        }
    }

    var isStreaming: Bool {
        if case .streaming = phase { true } else { false }
    }
}
