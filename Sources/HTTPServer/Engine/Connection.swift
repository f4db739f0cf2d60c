/// One client connection, owned by exactly one event loop and touched only on its thread:
/// its buffers, the request being read or answered, and its `ConnectionPolicy`.
final class Connection {
    /// Who is producing the current response, while the policy waits on `.response`.
    enum Responder {
        /// A deferred handler; its answer comes back through the loop's inbox.
        case handler(ResponseWriter.Context)
        /// A chunked response produced over time.
        case stream(ResponseStream, ResponseWriter.Context)
        /// A file sent in pieces; `offset` is how much of it is queued.
        case file(FileBody, offset: Int, ResponseWriter.Context)
    }

    /// A request whose head is routed and whose body is still arriving.
    struct PendingRequest {
        var head: RequestHead
        var target: (path: String, query: String?)
        var route: Route
        var parameters: [String: String]
        /// How the response will be framed: version, HEAD, keep-alive, request id.
        var context: ResponseWriter.Context
        /// The whole body, or for a route with a receiver the decoded bytes not yet handed on.
        var body: [UInt8] = []
        var receiver: (any RequestBodyReceiver)?
        var remaining: Int
        var chunked: ChunkedDecoder?
    }

    let fd: Int32
    let id: UInt64
    let remoteAddress: String

    var input: [UInt8] = []
    var inputStart = 0
    var output: [UInt8] = []
    var outputStart = 0

    var parser: HeadParser
    var policy: ConnectionPolicy
    var pending: PendingRequest?
    var responder: Responder?
    /// Set by `EventLoop.close`: the descriptor is gone (its number may already belong to
    /// another connection or file), so nothing may read, write or re-register it.
    var isClosed = false
    /// Counted against its address's connection cap.
    var countedPerAddress = false

    init(fd: Int32, id: UInt64, remoteAddress: String, limits: HeadLimits, policy: ConnectionPolicy) {
        self.fd = fd
        self.id = id
        self.remoteAddress = remoteAddress
        self.parser = HeadParser(limits: limits)
        self.policy = policy
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

    var isStreaming: Bool {
        if case .stream? = responder { true } else { false }
    }
}
