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
/// Chunk extensions and trailer fields are skipped, within bounds.
public struct ChunkedDecoder: Sendable {
    private enum State: Sendable {
        case size(value: Int, digits: Int)
        case extensions(length: Int)
        case sizeLF
        case data(remaining: Int)
        case dataCR
        case dataLF
        case trailerLineStart
        case trailerLine(length: Int)
        case trailerLF(emptyLine: Bool)
    }

    private static let maxSizeDigits = 15
    private static let maxExtensionBytes = 4096
    private static let maxTrailerBytes = 16 * 1024

    private var state: State = .size(value: 0, digits: 0)
    /// The size of the chunk whose size line is being finished.
    private var pendingSize = 0
    private var trailerBytes = 0
    public let limit: Int

    public init(limit: Int) {
        self.limit = limit
    }

    /// Appends the decoded data of `input` to `body`.
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
                    guard body.count + value <= limit else { return .failure(.tooLarge) }
                    pendingSize = value
                    if byte == ASCII.cr {
                        state = .sizeLF
                    } else if byte == ASCII.semicolon || byte == ASCII.space || byte == ASCII.tab {
                        state = .extensions(length: 1)
                    } else {
                        return .failure(.malformed("invalid chunk size"))
                    }
                }
            case .extensions(let length):
                if byte == ASCII.cr {
                    state = .sizeLF
                } else if byte == ASCII.lf || byte == 0 {
                    return .failure(.malformed("invalid chunk extension"))
                } else {
                    guard length < Self.maxExtensionBytes else { return .failure(.malformed("chunk extension too long")) }
                    state = .extensions(length: length + 1)
                }
            case .sizeLF:
                guard byte == ASCII.lf else { return .failure(.malformed("bare CR after chunk size")) }
                state = pendingSize == 0 ? .trailerLineStart : .data(remaining: pendingSize)
            case .data(let remaining):
                let take = min(remaining, input.count - index)
                body.append(contentsOf: UnsafeBufferPointer(rebasing: input[index..<index + take]))
                state = remaining == take ? .dataCR : .data(remaining: remaining - take)
                index += take
                continue
            case .dataCR:
                guard byte == ASCII.cr else { return .failure(.malformed("chunk data longer than its size")) }
                state = .dataLF
            case .dataLF:
                guard byte == ASCII.lf else { return .failure(.malformed("bare CR after chunk data")) }
                state = .size(value: 0, digits: 0)
            case .trailerLineStart:
                state = byte == ASCII.cr ? .trailerLF(emptyLine: true) : .trailerLine(length: 0)
                if byte != ASCII.cr { continue }
            case .trailerLine(let length):
                trailerBytes += 1
                guard trailerBytes <= Self.maxTrailerBytes else { return .failure(.malformed("trailer section too large")) }
                if byte == ASCII.cr {
                    state = .trailerLF(emptyLine: false)
                } else if byte == ASCII.lf || byte == 0 {
                    return .failure(.malformed("invalid trailer field"))
                } else {
                    state = .trailerLine(length: length + 1)
                }
            case .trailerLF(let emptyLine):
                guard byte == ASCII.lf else { return .failure(.malformed("bare CR in trailer section")) }
                if emptyLine { return .done(consumed: index + 1) }
                state = .trailerLineStart
            }
            index += 1
        }
        return .needMore
    }
}
