import ClientSocket

/// Why a message was not submitted. Descriptions name the step and the server's words,
/// never a password or a message body.
public enum SMTPError: Error, Equatable, CustomStringConvertible {
    case badURL(String)
    case badAddress(String)
    case connect(String)
    case timedOut(String)
    case closed(String)
    case tls(String)
    /// TLS is required (`smtpRequireTLS`) and the server does not offer STARTTLS.
    case tlsNotOffered
    case authentication(String)
    /// The server answered `code` where the step wanted something else.
    case rejected(step: String, code: Int, text: String)
    case malformedReply(String)

    /// A failure of the connection itself, as the mail sender reports it.
    init(_ error: SocketError) {
        switch error {
        case .connect(let why): self = .connect(why)
        case .timedOut(let step): self = .timedOut(step)
        case .closed(let step): self = .closed(step)
        case .tls(let why): self = .tls(why)
        }
    }

    /// A 5xx answer or an address that can never be sent to: retrying will not help.
    public var isPermanent: Bool {
        switch self {
        case .rejected(_, let code, _): code >= 500
        case .badAddress: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .badURL(let why): "smtpURL is not usable: \(why)"
        case .badAddress(let why): "address not usable: \(why)"
        case .connect(let why): "cannot connect: \(why)"
        case .timedOut(let step): "timed out waiting for \(step)"
        case .closed(let step): "the server closed the connection during \(step)"
        case .tls(let why): "TLS failed: \(why)"
        case .tlsNotOffered: "the server does not offer STARTTLS and TLS is required (smtpRequireTLS)"
        case .authentication(let why): "authentication failed: \(why)"
        case .rejected(let step, let code, let text): "\(step) answered \(code) \(text)"
        case .malformedReply(let why): "malformed reply: \(why)"
        }
    }
}
