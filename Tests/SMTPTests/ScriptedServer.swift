import Glibc
import Synchronization
import Threads

/// A mail server that follows a script, on 127.0.0.1: for each connection, a list of
/// steps (send a reply, or read a line and record it). It plays what aiosmtpd does not:
/// AUTH LOGIN only, a server that drops an idle connection, a permanent refusal, silence.
final class ScriptedServer: Sendable {
    enum Step {
        case say(String)
        /// Reads one line (or, for `.data`, everything up to the closing dot).
        case hear
        case data
        case close
        case stall(seconds: Double)
    }

    let port: UInt16
    private let listener: Int32
    private let heard = Mutex<[String]>([])

    init(connections: [[Step]]) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        listener = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(fd, pointer, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard bound else { throw ScriptError() }
        port = UInt16(bigEndian: address.sin_port)
        DedicatedThread.start(named: "scripted-smtp") { [self] in
            for script in connections {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                play(script, on: client)
                close(client)
            }
        }
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    /// Every line the client sent, in order (message bodies as one entry).
    var transcript: [String] {
        heard.withLock { $0 }
    }

    private func play(_ script: [Step], on client: Int32) {
        var pending: [UInt8] = []
        func line(until terminator: [UInt8]) -> String? {
            while true {
                if let range = pending.firstRange(of: terminator) {
                    let text = String(decoding: pending[..<range.lowerBound], as: UTF8.self)
                    pending.removeSubrange(..<range.upperBound)
                    return text
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = recv(client, &chunk, chunk.count, 0)
                guard count > 0 else { return nil }
                pending += chunk[..<count]
            }
        }
        for step in script {
            switch step {
            case .say(let reply): _ = send(client, reply + "\r\n", reply.utf8.count + 2, Int32(MSG_NOSIGNAL))
            case .hear: guard let text = line(until: [0x0D, 0x0A]) else { return }; heard.withLock { $0.append(text) }
            case .data: guard let text = line(until: Array("\r\n.\r\n".utf8)) else { return }; heard.withLock { $0.append(text) }
            case .close: return
            case .stall(let seconds): usleep(UInt32(seconds * 1_000_000))
            }
        }
    }
}

struct ScriptError: Error {}
