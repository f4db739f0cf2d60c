public enum ChunkedDecodeResult: Equatable, Sendable {
    /// All input was used; the body is not finished yet.
    case needMore
    /// The last chunk and trailer section ended; `consumed` bytes of the input belonged to the body.
    case done(consumed: Int)
    case failure(ChunkedDecodeError)
}

public enum ChunkedDecodeError: Error, Equatable, Sendable {
    case malformed(String)
    case tooLarge
}

/// An incremental decoder for `Transfer-Encoding: chunked` request bodies (RFC 9112 §7.1).
/// Chunk extensions must be `;`-separated `name[=value]` tokens and trailer lines valid
/// fields; both are checked and then skipped, within bounds. Anything looser would let a
/// proxy in front and this server disagree about where a chunk (and so a request) ends.
public struct ChunkedDecoder: Sendable {
    private enum State: Sendable {
        case size(value: Int, digits: Int)
        /// The bytes after the size, up to the CR, collected (bounded) and checked whole.
        case extensions
        case sizeLF
        case data(remaining: Int)
        case dataCR
        case dataLF
        case trailerLineStart
        case trailerName
        case trailerValue
        case trailerLF(emptyLine: Bool)
    }

    private static let maxSizeDigits = 15
    private static let maxExtensionBytes = 4096
    private static let maxTrailerBytes = 16 * 1024

    private var state: State = .size(value: 0, digits: 0)
    /// The size of the chunk whose size line is being finished.
    private var pendingSize = 0
    private var trailerBytes = 0
    /// Data decoded so far, for the limit: the caller may hand `body` on and empty it.
    private var decoded = 0
    private var extensionBytes: [UInt8] = []
    public let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    /// Appends the decoded data of `input` to `body`; `limit` counts all data decoded, even
    /// what the caller took out of `body` between calls.
    public mutating func decode(_ input: UnsafeBufferPointer<UInt8>, into body: inout [UInt8]) -> ChunkedDecodeResult {
        var index = 0
        while index < input.count {
            let byte = input[index]
            switch state {
            case .size(let value, let digits):
                if let digit = ASCII.hexValue(byte) {
                    guard digits < Self.maxSizeDigits else { return .failure(.malformed("chunk size too long")) }
                    state = .size(value: value * 16 + digit, digits: digits + 1)
                } else {
                    guard digits > 0 else { return .failure(.malformed("missing chunk size")) }
                    guard decoded + value <= limit else { return .failure(.tooLarge) }
                    pendingSize = value
                    if byte == ASCII.cr {
                        state = .sizeLF
                    } else if byte == ASCII.semicolon || byte == ASCII.space || byte == ASCII.tab {
                        extensionBytes.removeAll(keepingCapacity: true)
                        extensionBytes.append(byte)
                        state = .extensions
                    } else {
                        return .failure(.malformed("invalid chunk size"))
                    }
                }
            case .extensions:
                if byte == ASCII.cr {
                    guard ChunkExtensions.isValid(extensionBytes) else { return .failure(.malformed("invalid chunk extension")) }
                    state = .sizeLF
                } else {
                    guard extensionBytes.count < Self.maxExtensionBytes else { return .failure(.malformed("chunk extension too long")) }
                    extensionBytes.append(byte)
                }
            case .sizeLF:
                guard byte == ASCII.lf else { return .failure(.malformed("bare CR after chunk size")) }
                state = pendingSize == 0 ? .trailerLineStart : .data(remaining: pendingSize)
            case .data(let remaining):
                let take = min(remaining, input.count - index)
                body.append(contentsOf: UnsafeBufferPointer(rebasing: input[index..<index + take]))
                decoded += take
                state = remaining == take ? .dataCR : .data(remaining: remaining - take)
                index += take
                continue
            case .dataCR:
                guard byte == ASCII.cr else { return .failure(.malformed("chunk data longer than its size")) }
                state = .dataLF
            case .dataLF:
                guard byte == ASCII.lf else { return .failure(.malformed("bare CR after chunk data")) }
                state = .size(value: 0, digits: 0)
            case .trailerLineStart, .trailerName, .trailerValue:
                trailerBytes += 1
                guard trailerBytes <= Self.maxTrailerBytes else { return .failure(.malformed("trailer section too large")) }
                guard let next = Self.trailerStep(from: state, byte) else { return .failure(.malformed("invalid trailer field")) }
                state = next
            case .trailerLF(let emptyLine):
                guard byte == ASCII.lf else { return .failure(.malformed("bare CR in trailer section")) }
                if emptyLine { return .done(consumed: index + 1) }
                state = .trailerLineStart
            }
            index += 1
        }
        return .needMore
    }

    /// One byte of a trailer line: `token ":" field-value` (RFC 9112 §7.1.2), with no
    /// space before the colon and no control character but HTAB in the value; nil when
    /// the byte breaks that.
    private static func trailerStep(from state: State, _ byte: UInt8) -> State? {
        switch state {
        case .trailerLineStart:
            if byte == ASCII.cr { return .trailerLF(emptyLine: true) }
            return ASCII.isTokenCharacter(byte) ? .trailerName : nil
        case .trailerName:
            if byte == ASCII.colon { return .trailerValue }
            return ASCII.isTokenCharacter(byte) ? .trailerName : nil
        case .trailerValue:
            if byte == ASCII.cr { return .trailerLF(emptyLine: false) }
            return ASCII.isFieldValueCharacter(byte) ? .trailerValue : nil
        default:
            return nil
        }
    }
}
