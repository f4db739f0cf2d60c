/// How the body of a request is delimited (RFC 9112 §6.3).
public enum BodyFraming: Equatable, Sendable {
    case none
    case contentLength(Int)
    case chunked
}

public enum FramingError: Error, Equatable, Sendable {
    /// Ambiguous or malformed framing (400, then close: the next request's start is unknown).
    case badRequest(String)
    /// A transfer coding other than chunked (501).
    case unsupportedTransferCoding
}

extension RequestHead {
    /// Decides the body framing and refuses every combination a request smuggler could use
    /// to make two parsers disagree about where this request ends.
    public func bodyFraming() -> Result<BodyFraming, FramingError> {
        // One pass over the fields for the three names, on every request; an array only
        // for a name that is there (a request without a body carries neither of the two).
        var hosts = 0
        var transferCodings: [String] = []
        var contentLengths: [String] = []
        for field in fields {
            if asciiCaseInsensitiveEquals(field.name, "host") {
                hosts += 1
            } else if asciiCaseInsensitiveEquals(field.name, "transfer-encoding") {
                transferCodings.append(field.value)
            } else if asciiCaseInsensitiveEquals(field.name, "content-length") {
                contentLengths.append(field.value)
            }
        }
        if hosts > 1 { return .failure(.badRequest("more than one Host field")) }
        if version == .http1_1, hosts == 0 { return .failure(.badRequest("missing Host field")) }

        if !transferCodings.isEmpty {
            if !contentLengths.isEmpty { return .failure(.badRequest("both Content-Length and Transfer-Encoding")) }
            if version == .http1_0 { return .failure(.badRequest("Transfer-Encoding in an HTTP/1.0 request")) }
            let codings = listMembers(transferCodings)
            if codings.contains(where: { !asciiCaseInsensitiveEquals($0, "chunked".utf8) }) { return .failure(.unsupportedTransferCoding) }
            guard codings.count == 1 else { return .failure(.badRequest("invalid Transfer-Encoding")) }
            return .success(.chunked)
        }
        guard !contentLengths.isEmpty else { return .success(.none) }
        var length: Int?
        for value in contentLengths {
            for member in Array(value.utf8).split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
                guard let value = Self.parseContentLength(member.trimmingSpacesAndTabs()) else {
                    return .failure(.badRequest("invalid Content-Length"))
                }
                if let length, length != value { return .failure(.badRequest("conflicting Content-Length values")) }
                length = value
            }
        }
        return .success(length.map { $0 == 0 ? .none : .contentLength($0) } ?? .none)
    }

    /// `1*DIGIT`, refusing signs, spaces and anything that would overflow.
    private static func parseContentLength(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy(ASCII.isDigit) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - ASCII.zero) }
    }

    /// True when the client asked for `100 Continue` before it sends the body.
    public var expectsContinue: Bool {
        field("expect").map(Self.isContinueExpectation) ?? false
    }

    /// True when an `Expect` field names an expectation this server cannot meet (417).
    public var hasUnsupportedExpectation: Bool {
        field("expect").map { !Self.isContinueExpectation($0) } ?? false
    }

    private static func isContinueExpectation(_ value: String) -> Bool {
        asciiCaseInsensitiveEquals(Array(value.utf8)[...].trimmingSpacesAndTabs(), "100-continue".utf8)
    }
}
