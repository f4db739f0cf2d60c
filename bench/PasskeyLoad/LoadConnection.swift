import Glibc

/// One keep-alive HTTP/1.1 connection to 127.0.0.1, blocking: a request out, its answer
/// read by Content-Length (a 60-second receive timeout bounds every wait: a signup may queue
/// behind the others' password hashes). Requests and answers stay bytes, read into one
/// buffer the connection keeps: on this 2-core machine every microsecond the client spends
/// is one the server does not get, and Foundation's string searches cost more per sign-in
/// than the server's own JSON.
struct LoadConnection {
    struct Answer {
        let status: Int
        let body: [UInt8]

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The string member `name` of a flat JSON answer (the challenge, a token).
        func string(_ name: String) -> String? {
            string(name, from: 0)
        }

        /// The string member `name` of the object member `object`.
        func nested(_ object: String, _ name: String) -> String? {
            guard let start = Self.find(Array("\"\(object)\":{".utf8), in: body, from: 0) else { return nil }
            return string(name, from: start)
        }

        func contains(_ text: String) -> Bool {
            Self.find(Array(text.utf8), in: body, from: 0) != nil
        }

        private func string(_ name: String, from offset: Int) -> String? {
            let key = Array("\"\(name)\":\"".utf8)
            guard let start = Self.find(key, in: body, from: offset) else { return nil }
            let valueStart = start + key.count
            guard let end = body[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            return String(decoding: body[valueStart..<end], as: UTF8.self)
        }

        /// Where `needle` begins in `haystack` at or after `offset`.
        static func find(_ needle: [UInt8], in haystack: [UInt8], from offset: Int) -> Int? {
            guard let first = needle.first, haystack.count - offset >= needle.count else { return nil }
            var at = offset
            while at <= haystack.count - needle.count {
                guard let candidate = haystack[at...(haystack.count - needle.count)].firstIndex(of: first) else { return nil }
                if haystack[candidate..<(candidate + needle.count)].elementsEqual(needle) { return candidate }
                at = candidate + 1
            }
            return nil
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let fd: Int32
    /// Received bytes not yet handed out, from `start`; `count` of them are valid.
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var count = 0

    init(port: UInt16) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { throw Failure(description: "connect: \(errno)") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    mutating func request(_ method: String, _ path: String, body: String = "", token: String? = nil) throws -> Answer {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
        if let token { head += "Authorization: Bearer \(token)\r\n" }
        let bytes = Array(head.utf8) + [13, 10] + Array(body.utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: \(errno)") }
            sent += count
        }
        return try answer()
    }

    private static let headEnd: [UInt8] = [13, 10, 13, 10]
    private static let contentLength = Array("\r\ncontent-length:".utf8)

    private mutating func answer() throws -> Answer {
        for _ in 0..<100_000 {
            let received = Array(buffer[start..<(start + count)])
            if let end = Answer.find(Self.headEnd, in: received, from: 0), let status = Self.status(received), let length = Self.length(received[..<end]) {
                let total = end + 4 + length
                if count >= total {
                    start += total
                    count -= total
                    return Answer(status: status, body: Array(received[(end + 4)..<total]))
                }
            }
            if start + count == buffer.count {
                // Move what is unread to the front; an answer longer than the buffer is an error.
                guard start > 0 else { throw Failure(description: "an answer longer than \(buffer.count) bytes") }
                buffer.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: $0.baseAddress! + start, count: count) }
                start = 0
            }
            let room = buffer.count - start - count
            let read = buffer.withUnsafeMutableBufferPointer { recv(fd, $0.baseAddress! + start + count, room, 0) }
            guard read > 0 else { throw Failure(description: "the server closed the connection or timed out (\(errno))") }
            count += read
        }
        throw Failure(description: "no whole answer")
    }

    /// `HTTP/1.1 NNN …`: the three digits after the first space.
    private static func status(_ head: [UInt8]) -> Int? {
        guard head.count >= 12, head[8] == UInt8(ascii: " ") else { return nil }
        return head[9..<12].reduce(0) { $0 * 10 + Int($1) - 48 }
    }

    /// The Content-Length header's value (its name in any case), 0 without one.
    private static func length(_ head: ArraySlice<UInt8>) -> Int? {
        let lowered = head.map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        guard let at = Answer.find(contentLength, in: lowered, from: 0) else { return 0 }
        var value = 0
        for byte in lowered[(at + contentLength.count)...] {
            if byte == UInt8(ascii: " ") { continue }
            guard byte >= 48, byte <= 57 else { break }
            value = value * 10 + Int(byte) - 48
        }
        return value
    }
}
