import Foundation
import Glibc
import Synchronization
import TestSupport

/// A proxy in front of a test server that can lose answers, as a flaky network does: it
/// passes each request on (one per connection) and, while told to, closes the connection
/// of a refresh after the server answered it, without the answer. The server rotated the
/// token; the client never learns the new one.
final class AnswerLosingProxy: Sendable {
    let port: Int
    private let listener: Int32
    private let upstreamPort: Int
    private let state = Mutex((dropsLeft: 0, dropped: 0, stopped: false))

    init(upstreamPort: Int) throws {
        self.upstreamPort = upstreamPort
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard fd >= 0, bound, listen(fd, 64) == 0 else { throw TestError("proxy: cannot listen: errno \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Loses the answers of the next `count` refreshes.
    func loseNextRefreshAnswers(_ count: Int) { state.withLock { $0.dropsLeft = count } }

    /// How many refresh answers were lost so far.
    var dropped: Int { state.withLock { $0.dropped } }

    func stop() { state.withLock { $0.stopped = true } }

    deinit { close(listener) }

    private func acceptLoop() {
        // Polls in 100 ms steps so that `stop()` ends it.
        while !state.withLock({ $0.stopped }) {
            var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 100) > 0 else { continue }
            let client = accept(listener, nil, nil)
            guard client >= 0 else { continue }
            Thread.detachNewThread { [self] in
                relay(client)
                close(client)
            }
        }
    }

    /// One request from `client` to the server and (unless lost) its answer back.
    private func relay(_ client: Int32) {
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard let (head, body) = Self.readRequest(client) else { return }
        // One request per connection: the server is asked to close, and so is the client.
        let lines = head.components(separatedBy: "\r\n").filter { !$0.lowercased().hasPrefix("connection:") && !$0.isEmpty }
        let request = Array((lines.joined(separator: "\r\n") + "\r\nConnection: close\r\n\r\n").utf8) + body
        guard let upstream = try? RawConnection(port: upstreamPort, timeout: 10), (try? upstream.send(request)) != nil,
              let answer = try? upstream.readResponse()
        else { return }
        let isRefresh = head.hasPrefix("POST /v1/auth/refresh ")
        let lose = isRefresh && state.withLock { state in
            guard state.dropsLeft > 0 else { return false }
            state.dropsLeft -= 1
            state.dropped += 1
            return true
        }
        if lose { return }
        var response = "HTTP/1.1 \(answer.status) Relayed\r\n"
        for (name, value) in answer.headers where !["content-length", "transfer-encoding", "connection"].contains(name.lowercased()) {
            response += "\(name): \(value)\r\n"
        }
        response += "Content-Length: \(answer.body.count)\r\nConnection: close\r\n\r\n"
        let bytes = Array(response.utf8) + answer.body
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return }
            offset += sent
        }
    }

    /// The request head (without its blank line) and its `Content-Length` body.
    private static func readRequest(_ client: Int32) -> (String, [UInt8])? {
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let marker = Array("\r\n\r\n".utf8)
        // Each pass reads at least a byte or gives up; heads and bodies here are small.
        while buffer.count < 1 << 20 {
            if let end = (0...max(0, buffer.count - 4)).first(where: { buffer.count >= 4 && Array(buffer[$0..<$0 + 4]) == marker }) {
                let head = String(decoding: buffer[..<end], as: UTF8.self)
                let length = head.components(separatedBy: "\r\n")
                    .first { $0.lowercased().hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if buffer.count >= end + 4 + length { return (head, Array(buffer[(end + 4)..<(end + 4 + length)])) }
            }
            let count = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            buffer += chunk[..<count]
        }
        return nil
    }
}
