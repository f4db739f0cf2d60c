import ClientSocket

/// Why an outbound HTTPS request got no usable answer. Descriptions name the step and the
/// host, never a request body (it may hold a client secret).
public enum HTTPSError: Error, Equatable, CustomStringConvertible {
    /// Not an `https://` URL this client can send to.
    case badURL(String)
    case socket(SocketError)
    /// A 3xx answer: redirects are refused, so a request never lands where it was not sent.
    case redirectRefused(status: Int)
    /// The answer's head or body is larger than the limits allow.
    case tooLarge(String)
    case malformedResponse(String)

    public var description: String {
        switch self {
        case .badURL(let why): "not a usable https URL: \(why)"
        case .socket(let error): error.description
        case .redirectRefused(let status): "the server answered \(status), a redirect, which is refused"
        case .tooLarge(let what): "the answer is too large: \(what)"
        case .malformedResponse(let why): "malformed answer: \(why)"
        }
    }
}
