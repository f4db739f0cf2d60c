/// Why a request head was refused; each case decides one status code, so the engine can
/// answer precisely instead of folding every limit into one error.
public enum HeadParseError: Error, Equatable, Sendable {
    /// Malformed syntax (400); the reason is a fixed phrase, never peer bytes.
    case badRequest(String)
    /// Request line longer than its limit (414).
    case requestLineTooLong
    /// Header section longer than its limit or with too many fields (431).
    case headerSectionTooLarge
    /// A major version other than 1 (505).
    case versionNotSupported
}
