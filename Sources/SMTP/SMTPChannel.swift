import COpenSSL
import Glibc

/// One connection to a mail server: a non-blocking socket that every step waits on with
/// `poll` and a deadline, first plain, then (after STARTTLS, or from the start) TLS.
/// Replies are read a line at a time into a bounded buffer.
final class SMTPChannel {
    private let descriptor: Int32
    private var tls: TLSStream?
    private var buffer: [UInt8] = []
    private var consumed = 0
    /// RFC 5321 allows 512 bytes per reply line; a little more is tolerated, no more.
    static let maximumLineLength = 2048

    var isEncrypted: Bool { tls != nil }

    /// Connects to the first address of `host` that answers before `deadline`.
    init(host: String, port: UInt16, deadline: Deadline) throws(SMTPError) {
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

    /// Starts TLS on this connection, verifying the server's certificate for `host`.
    func startTLS(context: TLSContext, host: String, deadline: Deadline) throws(SMTPError) {
        guard consumed == buffer.count else { throw .malformedReply("bytes after the reply that starts TLS") }
        tls = try TLSStream(context: context, descriptor: descriptor, host: host, deadline: deadline)
    }

    func write(_ bytes: [UInt8], step: String, deadline: Deadline) throws(SMTPError) {
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

    /// The next line without its CRLF; a line longer than `maximumLineLength` is an error.
    func readLine(step: String, deadline: Deadline) throws(SMTPError) -> ArraySlice<UInt8> {
        while true {
            if let newline = buffer[consumed...].firstIndex(of: 0x0A) {
                var end = newline
                if end > consumed, buffer[end - 1] == 0x0D { end -= 1 }
                let line = buffer[consumed..<end]
                consumed = newline + 1
                return line
            }
            guard buffer.count - consumed <= Self.maximumLineLength else { throw .malformedReply("a reply line longer than \(Self.maximumLineLength) bytes") }
            if consumed > 0 {
                buffer.removeFirst(consumed)
                consumed = 0
            }
            try fill(step: step, deadline: deadline)
        }
    }

    private func fill(step: String, deadline: Deadline) throws(SMTPError) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count: Int
            if let tls {
                count = try tls.read(into: &chunk, step: step, deadline: deadline)
            } else {
                count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                if count < 0 {
                    guard errno == EAGAIN || errno == EINTR else { throw .closed("\(step) (\(Self.errnoText()))") }
                    try Self.wait(descriptor, for: Int16(POLLIN), until: deadline, step: step)
                    continue
                }
            }
            guard count > 0 else { throw .closed(step) }
            buffer.append(contentsOf: chunk[..<count])
            return
        }
    }

    /// Waits until `descriptor` is ready for `events`, or throws when `deadline` passes.
    static func wait(_ descriptor: Int32, for events: Int16, until deadline: Deadline, step: String) throws(SMTPError) {
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

/// A point in time on the monotonic clock that a step must finish by.
struct Deadline {
    private let nanoseconds: UInt64

    init(secondsFromNow seconds: Double) {
        nanoseconds = Self.now() + UInt64(max(0, seconds) * 1_000_000_000)
    }

    var remainingMilliseconds: Int32 {
        let now = Self.now()
        guard nanoseconds > now else { return 0 }
        return Int32(clamping: (nanoseconds - now + 999_999) / 1_000_000)
    }

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
