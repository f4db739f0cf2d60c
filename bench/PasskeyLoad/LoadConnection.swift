import Foundation
import Glibc

/// One keep-alive HTTP/1.1 connection to 127.0.0.1, blocking: a request out, its answer
/// read by Content-Length (a 60-second receive timeout bounds every wait: a signup may queue behind the others' password hashes).
struct LoadConnection {
    struct Answer {
        let status: Int
        let text: String

        /// The string member `name` of a flat JSON answer (the challenge, a token).
        func string(_ name: String) -> String? {
            guard let start = text.range(of: "\"\(name)\":\"") else { return nil }
            let rest = text[start.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }

        /// The string member `name` of the object member `object`.
        func nested(_ object: String, _ name: String) -> String? {
            guard let start = text.range(of: "\"\(object)\":{") else { return nil }
            return Answer(status: status, text: String(text[start.upperBound...])).string(name)
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let fd: Int32
    private var buffer: [UInt8] = []

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
        let bytes = Array((head + "\r\n" + body).utf8)
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: \(errno)") }
            sent += count
        }
        return try answer()
    }

    private mutating func answer() throws -> Answer {
        let end: [UInt8] = [13, 10, 13, 10]
        for _ in 0..<100_000 {
            if let headEnd = buffer.firstRange(of: end) {
                let head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
                let status = Int(head.split(separator: " ", maxSplits: 2).dropFirst().first ?? "") ?? 0
                let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
                let total = headEnd.upperBound + length
                if buffer.count >= total {
                    let text = String(decoding: buffer[headEnd.upperBound..<total], as: UTF8.self)
                    buffer.removeFirst(total)
                    return Answer(status: status, text: text)
                }
            }
            var chunk = [UInt8](repeating: 0, count: 16384)
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { throw Failure(description: "the server closed the connection or timed out (\(errno))") }
            buffer += chunk[..<count]
        }
        throw Failure(description: "no whole answer")
    }
}
