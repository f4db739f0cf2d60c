import ArgumentParser
import Glibc
import Logging

/// `latchkey healthcheck`: exit 0 when the configured server answers `GET /readyz` with
/// 200 within 5 seconds, else 1, so a container needs no curl for its HEALTHCHECK. A server
/// listening on every address (0.0.0.0, ::) is asked on loopback.
struct HealthcheckCommand: SettingsCommand {
    static let configuration = CommandConfiguration(
        commandName: "healthcheck", abstract: "Exit 0 when the configured server's /readyz answers 200 (for container health checks)."
    )

    func run(settings: Settings, logger: Logger) throws {
        let host = switch settings.host {
        case "0.0.0.0", "": "127.0.0.1"
        case "::": "::1"
        default: settings.host
        }
        let status = Self.readyStatus(host: host, port: settings.port)
        guard status == 200 else {
            throw CommandFailure(message: "not ready: \(status.map { "GET /readyz answered \($0)" } ?? "nothing answered on \(host):\(settings.port)")", status: 1)
        }
    }

    /// The status of `GET /readyz`, or nil when nothing answered.
    static func readyStatus(host: String, port: Int) -> Int? {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let address = found else { return nil }
        defer { freeaddrinfo(found) }
        let fd = socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else { return nil }
        let request = Array("GET /readyz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == request.count else { return nil }
        var reply = [UInt8](repeating: 0, count: 64)
        var received = 0
        // The status line fits in 64 bytes; each read adds at least one or ends the loop.
        while received < 12 {
            let count = reply[received...].withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += count
        }
        guard received >= 12, reply.starts(with: Array("HTTP/1.1 ".utf8)) else { return nil }
        return Int(String(decoding: reply[9..<12], as: UTF8.self))
    }
}
