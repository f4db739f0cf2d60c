import Glibc

/// One outbound TCP connection: a non-blocking socket that every step waits on with `poll`
/// and a deadline, plain at first and TLS once `startTLS` verified the server. What the
/// SMTP client and the HTTPS client share; neither ever blocks past its step's deadline.
public final class ClientSocket {
    private let descriptor: Int32
    private var tls: TLSStream?

    public var isEncrypted: Bool { tls != nil }

    /// Connects to the first address of `host` that answers before `deadline` (at most 16 tried).
    public init(host: String, port: UInt16, deadline: Deadline) throws(SocketError) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw .connect("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        var attempts = 0
        while let address = candidate, attempts < 16 {
            attempts += 1
            candidate = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else { lastError = Self.errnoText(); continue }
            if connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 || errno == EINPROGRESS {
                do {
                    try Self.wait(fd, for: Int16(POLLOUT), until: deadline, step: "connect")
                    var soError: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &length)
                    if soError == 0 {
                        descriptor = fd
                        return
                    }
                    lastError = String(cString: strerror(soError))
                } catch {
                    lastError = error.description
                }
            } else {
                lastError = Self.errnoText()
            }
            close(fd)
        }
        throw .connect("\(host):\(port): \(lastError)")
    }

    deinit {
        tls = nil
        close(descriptor)
    }

    /// Starts TLS on this connection, verifying the server's certificate chain and that it
    /// names `host`.
    public func startTLS(context: TLSContext, host: String, deadline: Deadline) throws(SocketError) {
        tls = try TLSStream(context: context, descriptor: descriptor, host: host, deadline: deadline)
    }

    /// Sends all of `bytes` before `deadline`.
    public func write(_ bytes: [UInt8], step: String, deadline: Deadline) throws(SocketError) {
        var offset = 0
        while offset < bytes.count {
            let sent: Int
            if let tls {
                sent = try tls.write(bytes[offset...], step: step, deadline: deadline)
            } else {
                let result = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if result < 0 {
                    guard errno == EAGAIN || errno == EINTR else { throw .closed("\(step) (\(Self.errnoText()))") }
                    try Self.wait(descriptor, for: Int16(POLLOUT), until: deadline, step: step)
                    continue
                }
                sent = result
            }
            offset += sent
        }
    }

    /// Reads what arrives next into `chunk` (at least one byte) before `deadline`; 0 when
    /// the server closed the connection (or, over TLS, ended it cleanly).
    public func read(into chunk: inout [UInt8], step: String, deadline: Deadline) throws(SocketError) -> Int {
        for _ in 0..<100_000 {
            if let tls { return try tls.read(into: &chunk, step: step, deadline: deadline) }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count >= 0 { return count }
            guard errno == EAGAIN || errno == EINTR else { throw .closed("\(step) (\(Self.errnoText()))") }
            try Self.wait(descriptor, for: Int16(POLLIN), until: deadline, step: step)
        }
        throw .timedOut(step)
    }

    /// Waits until `descriptor` is ready for `events`, or throws when `deadline` passes.
    static func wait(_ descriptor: Int32, for events: Int16, until deadline: Deadline, step: String) throws(SocketError) {
        var attempts = 0
        while attempts < 1000 {
            attempts += 1
            let remaining = deadline.remainingMilliseconds
            guard remaining > 0 else { throw .timedOut(step) }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, remaining)
            if ready > 0 { return }
            if ready < 0, errno != EINTR { throw .closed("\(step) (\(errnoText()))") }
        }
        throw .timedOut(step)
    }

    static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
