/// Why a step on an outbound connection failed. Descriptions name the step and the
/// system's or OpenSSL's words, never what was being sent.
public enum SocketError: Error, Equatable, CustomStringConvertible {
    case connect(String)
    case timedOut(String)
    case closed(String)
    case tls(String)

    public var description: String {
        switch self {
        case .connect(let why): "cannot connect: \(why)"
        case .timedOut(let step): "timed out waiting for \(step)"
        case .closed(let step): "the server closed the connection during \(step)"
        case .tls(let why): "TLS failed: \(why)"
        }
    }
}
