import Foundation
import Glibc

public struct TestError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A blocking client socket to 127.0.0.1 with a receive timeout, for sending exact bytes
/// and reading exact responses. Nothing it does can hang a test past its timeout.
public final class RawConnection {
    public let fd: Int32
    private var buffer: [UInt8] = []

    public init(port: Int, timeout: Double = 5) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestError("socket: errno \(errno)") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            let code = errno
            Glibc.close(fd)
            throw TestError("connect to port \(port): \(String(cString: strerror(code)))")
        }
    }

    deinit { Glibc.close(fd) }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw TestError("send: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// Reads more bytes into the buffer; false when the peer closed (or reset).
    @discardableResult
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count > 0 {
            buffer.append(contentsOf: chunk[0..<count])
            return true
        }
        if count == 0 || errno == ECONNRESET { return false }
        throw TestError("recv timed out or failed: \(String(cString: strerror(errno)))")
    }

    /// Reads one whole response (Content-Length, chunked, or until close). 1xx interim
    /// responses are returned like any other; call again for the final one.
    public func readResponse(isHead: Bool = false) throws -> RawResponse {
        let headEnd = try readUntil(Array("\r\n\r\n".utf8))
        let headText = String(decoding: buffer[0..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, let status = Int(parts[1]) else { throw TestError("bad status line: \(statusLine)") }
        let headers = lines.map { line -> (String, String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = RawResponse(status: status, headers: headers, body: [])
        if status < 200 || status == 204 || status == 304 || isHead { return response }
        if response.header("transfer-encoding")?.lowercased() == "chunked" {
            response.body = try readChunkedBody()
        } else if let length = response.header("content-length").flatMap(Int.init) {
            while buffer.count < length {
                guard try fill() else { throw TestError("peer closed inside a body") }
            }
            response.body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        } else {
            while try fill() {}
            response.body = buffer
            buffer = []
        }
        return response
    }

    private func readChunkedBody() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let lineEnd = try readUntil(Array("\r\n".utf8))
            let sizeText = String(decoding: buffer[0..<lineEnd], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";")[0], radix: 16) else { throw TestError("bad chunk size \(sizeText)") }
            buffer.removeFirst(lineEnd + 2)
            if size == 0 {
                _ = try readUntil(Array("\r\n".utf8))
                buffer.removeFirst(2)
                return body
            }
            while buffer.count < size + 2 {
                guard try fill() else { throw TestError("peer closed inside a chunk") }
            }
            body.append(contentsOf: buffer[0..<size])
            buffer.removeFirst(size + 2)
        }
    }

    /// Reads the next chunk of a chunked body, for streams that stay open.
    public func readChunk() throws -> [UInt8]? {
        let lineEnd = try readUntil(Array("\r\n".utf8))
        guard let size = Int(String(decoding: buffer[0..<lineEnd], as: UTF8.self), radix: 16) else { throw TestError("bad chunk size") }
        buffer.removeFirst(lineEnd + 2)
        if size == 0 { return nil }
        while buffer.count < size + 2 {
            guard try fill() else { throw TestError("peer closed inside a chunk") }
        }
        defer { buffer.removeFirst(size + 2) }
        return Array(buffer[0..<size])
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                for start in searchFrom...(buffer.count - marker.count) where buffer[start..<start + marker.count].elementsEqual(marker) {
                    return start
                }
                searchFrom = buffer.count - marker.count + 1
            }
            guard try fill() else { throw TestError("peer closed before \(marker)") }
        }
    }

    /// True when the server closes the connection (EOF or reset) within the receive timeout,
    /// once any bytes already sent have been read.
    public func closesConnection() -> Bool {
        while true {
            do {
                if try !fill() { return true }
            } catch {
                return false
            }
        }
    }

    /// Half-closes the sending side, as a client that has nothing more to say.
    public func shutdownWrite() { Glibc.shutdown(fd, Int32(SHUT_WR)) }
}

public struct RawResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
}
