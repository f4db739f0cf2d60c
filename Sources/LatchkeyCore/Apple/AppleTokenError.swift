import HTTPSClient

/// Why Apple's token or revocation endpoint gave no usable answer. Descriptions name the
/// step, the status and Apple's error code, never a code, token or client secret.
public enum AppleTokenError: Error, Equatable, CustomStringConvertible {
    /// The authorization code is not one Apple could have issued (empty, too long, or bytes
    /// outside visible ASCII); nothing was sent.
    case malformedCode
    /// No answer: the connection, TLS, a deadline, a redirect or the size limits.
    case unreachable(HTTPSError)
    /// Apple answered with an error: its status and its `error` code (`invalid_grant` for
    /// a code that is spent or expired, `invalid_client` for a client secret it refused).
    case rejected(status: Int, error: String)
    /// A 200 whose body is not the JSON Apple sends, or holds no usable refresh token.
    case malformedAnswer(String)
    /// Too many exchanges already wait for a thread.
    case busy
    /// Apple's answer is for another user than the sign-in's (its ID token's `sub`), or
    /// names none: nothing was kept.
    case subjectMismatch

    public var description: String {
        switch self {
        case .malformedCode: "the authorization code is malformed"
        case .unreachable(let error): "Apple's endpoint could not be reached: \(error)"
        case .rejected(let status, let error): "Apple answered \(status) \(error)"
        case .malformedAnswer(let why): "Apple's answer is malformed: \(why)"
        case .busy: "too many Apple token exchanges are waiting"
        case .subjectMismatch: "Apple's answer is for another user than the one who signed in"
        }
    }
}
