import Glibc
import Synchronization

/// A blocking test client over a plain TCP socket to 127.0.0.1. Every call runs on a thread
/// of its own (see `OwnThread`) and gives up at a deadline, so no test can hang on it.
final class RawClient: Sendable {
    private struct State {
        var buffer: [UInt8] = []
        var peerClosed = false
        var closed = false
    }

    let fd: Int32
    private let state = Mutex(State())

    /// How long one read waits before the deadline is looked at again.
    private static let receivePollTimeout = timeval(tv_sec: 0, tv_usec: 250_000)
    private static let sendTimeout = timeval(tv_sec: 10, tv_usec: 0)

    private init(fd: Int32) {
        self.fd = fd
    }

    deinit {
        close()
    }

    static func connect(port: Int) async throws -> RawClient {
        try await OwnThread.run { try connectNow(port: port) }
    }

    private static func connectNow(port: Int) throws(ClientError) -> RawClient {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .connectFailed(errno: errno) }
        var receiveTimeout = receivePollTimeout
        var sendTimeout = sendTimeout
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &receiveTimeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &sendTimeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw .connectFailed(errno: code)
        }
        return RawClient(fd: fd)
    }

    func send(_ text: String) async throws {
        try await send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) async throws {
        try await OwnThread.run { try self.sendNow(bytes) }
    }

    /// Sends from the calling thread; for trickling from a thread that is already private.
    func sendNow(_ bytes: [UInt8]) throws(ClientError) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            if sent < 0 {
                if errno == EINTR { continue }
                throw .sendFailed(errno: errno)
            }
            offset += sent
        }
    }

    /// Sends `batch` again and again without blocking and without reading, until the kernel
    /// takes no more for a while (the peer stopped reading), `limit` bytes went out, or
    /// `duration` passed; returns how many bytes the kernel accepted.
    func sendWithoutBlocking(_ batch: [UInt8], upTo limit: Int, within duration: Duration) -> Int {
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        var total = 0
        var offset = 0
        var stalledSince: ContinuousClock.Instant?
        while total < limit, clock.now < deadline {
            let sent = batch.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, batch.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 {
                total += sent
                offset = (offset + sent) % batch.count
                stalledSince = nil
            } else if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                // A full buffer for half a second means the server has stopped reading.
                let since = stalledSince ?? clock.now
                if clock.now - since > .milliseconds(500) { break }
                stalledSince = since
                usleep(1_000)
            } else if sent < 0, errno != EINTR {
                break
            }
        }
        return total
    }

    /// Reads until one whole response is buffered (`bodyless` for answers to HEAD).
    func readResponse(bodyless: Bool = false, within limit: Duration = .seconds(20)) async throws -> RawResponse {
        try await OwnThread.run { try self.readResponseNow(bodyless: bodyless, within: limit) }
    }

    func exchange(_ request: String, bodyless: Bool = false) async throws -> RawResponse {
        try await send(request)
        return try await readResponse(bodyless: bodyless)
    }

    /// Reads until the head of a response is buffered; body bytes stay buffered.
    func readResponseHead(within limit: Duration = .seconds(20)) async throws -> RawResponse {
        try await OwnThread.run {
            let deadline = ContinuousClock.now + limit
            while true {
                if let (status, fields, end) = try self.state.withLock({ state throws(ClientError) in try RawResponseParser.parseHead(state.buffer) }) {
                    self.state.withLock { $0.buffer.removeFirst(end) }
                    return RawResponse(status: status, fields: fields, body: [], chunks: nil)
                }
                try self.receive(before: deadline)
            }
        }
    }

    /// True once the server has closed its side (EOF or reset) within `limit`. Bytes that
    /// arrive meanwhile are kept and reported by `unreadBytes`.
    func waitForClose(within limit: Duration = .seconds(10)) async throws -> Bool {
        try await OwnThread.run {
            let deadline = ContinuousClock.now + limit
            while !self.state.withLock({ $0.peerClosed }) {
                guard ContinuousClock.now < deadline else { return false }
                do {
                    try self.receive(before: deadline)
                } catch ClientError.timedOut {
                    return false
                }
            }
            return true
        }
    }

    /// Sends FIN: the server sees end of input while it can still write.
    func shutdownWrite() {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    var unreadBytes: [UInt8] { state.withLock { $0.buffer } }

    func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            Glibc.close(fd)
        }
    }

    private func readResponseNow(bodyless: Bool, within limit: Duration) throws -> RawResponse {
        let deadline = ContinuousClock.now + limit
        while true {
            let parsed = try state.withLock { state throws(ClientError) in
                try RawResponseParser.parse(state.buffer, bodyless: bodyless, peerClosed: state.peerClosed)
            }
            if let (response, consumed) = parsed {
                state.withLock { $0.buffer.removeFirst(consumed) }
                return response
            }
            if state.withLock({ $0.peerClosed }) { throw ClientError.closedBeforeResponse }
            try receive(before: deadline)
        }
    }

    /// One read of at most `receivePollTimeout`; throws `timedOut` past the deadline.
    private func receive(before deadline: ContinuousClock.Instant) throws(ClientError) {
        guard ContinuousClock.now < deadline else { throw .timedOut }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            state.withLock { $0.buffer.append(contentsOf: chunk[0..<count]) }
        } else if count == 0 {
            state.withLock { $0.peerClosed = true }
        } else {
            switch errno {
            case EAGAIN, EWOULDBLOCK, EINTR: return
            case ECONNRESET: state.withLock { $0.peerClosed = true }
            case let code: throw .receiveFailed(errno: code)
            }
        }
    }
}
