import Glibc

/// The outcome of offering the bytes received so far to `HeadParser`.
public enum HeadParseResult: Equatable, Sendable {
    /// A whole, valid head; `consumed` bytes of the input belong to it.
    case complete(RequestHead, consumed: Int)
    /// More bytes are needed; nothing is wrong so far.
    case incomplete
    case failure(HeadParseError)
}

/// An incremental parser for the request line and header section (RFC 9112 §2–5).
///
/// It is a pure function over borrowed bytes that keeps only how far it has scanned, so
/// bytes that trickle in one at a time are each looked at once (the cheap answer to
/// slowloris), and no peer byte is trusted: bare CR, bare LF, NUL, obs-fold, whitespace
/// before a colon and every size limit are refused as soon as they are seen.
public struct HeadParser: Sendable {
    public let limits: HeadLimits

    // Offsets are relative to the start of the buffer handed to `parse`, which must be
    // the same head each call (with more bytes appended) until `reset()`.
    private var scanned = 0
    private var lineStart = 0
    private var requestLineStart = 0
    private var requestLineEnd: Int?
    private var fieldLines = 0
    /// A control character other than CR, LF or NUL was scanned (TAB is legal in values);
    /// only then do the field values need a byte-by-byte check of their own.
    private var sawControl = false

    public init(limits: HeadLimits = HeadLimits()) {
        self.limits = limits
    }

    /// Forgets the scan so the parser can start on the next request's head.
    public mutating func reset() {
        scanned = 0
        lineStart = 0
        requestLineStart = 0
        requestLineEnd = nil
        fieldLines = 0
        sawControl = false
    }

    public mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> HeadParseResult {
        let count = bytes.count
        var index = scanned
        // Limits are checked byte by byte, so the first violation in byte order wins
        // however the bytes were split across reads (the fuzzer checks that).
        let scanEnd = min(count, limits.maxHeaderSectionBytes)
        while index < scanEnd {
            // Most bytes are printable: skipped a word at a time, up to the request line's
            // limit while that line is open, so the limit is still caught at its byte.
            let plainEnd = requestLineEnd == nil ? min(scanEnd, lineStart + limits.maxRequestLineBytes) : scanEnd
            index = Self.skipPrintable(bytes, from: index, to: plainEnd)
            guard index < scanEnd else { break }
            let byte = bytes[index]
            if byte >= ASCII.space, byte != 0x7F {
                // A printable byte the skip stopped at: the request line reached its limit.
                if requestLineEnd == nil, index - lineStart >= limits.maxRequestLineBytes { return .failure(.requestLineTooLong) }
            } else if byte == ASCII.lf {
                guard index > 0, bytes[index - 1] == ASCII.cr else { return .failure(.badRequest("bare LF in head")) }
                let lineLength = index - 1 - lineStart
                if let requestLineEnd {
                    if lineLength == 0 {
                        return finish(bytes, requestLineEnd: requestLineEnd, headEnd: index + 1)
                    }
                    fieldLines += 1
                    if fieldLines > limits.maxFieldCount { return .failure(.headerSectionTooLarge) }
                } else if lineLength > 0 {
                    requestLineStart = lineStart
                    requestLineEnd = index
                }
                // An empty line before the request line is ignored (RFC 9112 §2.2).
                lineStart = index + 1
            } else if byte == ASCII.cr {
                if index + 1 == count { break }  // look again once the next byte is here
                if bytes[index + 1] != ASCII.lf { return .failure(.badRequest("bare CR in head")) }
            } else if byte == 0 {
                return .failure(.badRequest("NUL in head"))
            } else {
                sawControl = true
                if requestLineEnd == nil, index - lineStart >= limits.maxRequestLineBytes { return .failure(.requestLineTooLong) }
            }
            index += 1
        }
        if index >= limits.maxHeaderSectionBytes, index < count { return .failure(.headerSectionTooLarge) }
        scanned = index
        return .incomplete
    }

    /// The end of the run of printable bytes (0x20...0x7E, and every byte above 0x7F) that
    /// starts at `start`, looking no further than `end`. Eight bytes are tested at once: a
    /// word holds a byte below 0x20 exactly when `(word - 0x20…) & ~word & 0x80…` is not
    /// zero, and a 0x7F exactly when the same test for zero holds of `word ^ 0x7F…` (a
    /// borrow can only come from such a byte lower down, so neither test misses one or
    /// reports one that is not there). The word that holds one is then walked byte by byte.
    static func skipPrintable(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        guard start < end, let base = bytes.baseAddress else { return start }
        let raw = UnsafeRawPointer(base)
        var index = start
        while index + 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            let control = (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
            let delete = word ^ 0x7F7F_7F7F_7F7F_7F7F
            let deleteFound = (delete &- 0x0101_0101_0101_0101) & ~delete & 0x8080_8080_8080_8080
            if control | deleteFound != 0 { break }
            index += 8
        }
        while index < end, bytes[index] >= ASCII.space, bytes[index] != 0x7F { index += 1 }
        return index
    }

    private func finish(_ bytes: UnsafeBufferPointer<UInt8>, requestLineEnd: Int, headEnd: Int) -> HeadParseResult {
        let requestLine: (method: String, target: String, version: HTTPVersion)
        switch Self.parseRequestLine(bytes, from: requestLineStart, to: requestLineEnd - 1) {
        case .success(let line): requestLine = line
        case .failure(let error): return .failure(error)
        }
        var fields: [HTTPField] = []
        fields.reserveCapacity(fieldLines)
        var lineStart = requestLineEnd + 1
        while lineStart < headEnd - 2 {
            // Every line of the head ends in CRLF (`parse` checked), so the CR is there.
            let lineEnd = UnsafeRawPointer(memchr(bytes.baseAddress! + lineStart, Int32(ASCII.cr), headEnd - lineStart)!)
                - UnsafeRawPointer(bytes.baseAddress!)
            switch Self.parseField(bytes, from: lineStart, to: lineEnd, checkValueBytes: sawControl) {
            case .success(let field): fields.append(field)
            case .failure(let error): return .failure(error)
            }
            lineStart = lineEnd + 2
        }
        let head = RequestHead(method: requestLine.method, target: requestLine.target, version: requestLine.version, fields: fields)
        return .complete(head, consumed: headEnd)
    }

    /// `method SP request-target SP HTTP-version`, exactly one space apart.
    static func parseRequestLine(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> Result<(method: String, target: String, version: HTTPVersion), HeadParseError> {
        var index = start
        while index < end, ASCII.isTokenCharacter(bytes[index]) { index += 1 }
        let methodEnd = index
        guard methodEnd > start, index < end, bytes[index] == ASCII.space else {
            return .failure(.badRequest("malformed request line"))
        }
        index += 1
        let targetStart = index
        while index < end, bytes[index] > ASCII.space, bytes[index] < 0x7F { index += 1 }
        let targetEnd = index
        guard targetEnd > targetStart, index < end, bytes[index] == ASCII.space else {
            return .failure(.badRequest("malformed request line"))
        }
        index += 1
        guard end - index == 8, let version = parseVersion(bytes, at: index) else {
            return .failure(.badRequest("malformed HTTP version"))
        }
        guard version.major == 1 else { return .failure(.versionNotSupported) }
        return .success((
            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<methodEnd]), as: UTF8.self),
            String(decoding: UnsafeBufferPointer(rebasing: bytes[targetStart..<targetEnd]), as: UTF8.self),
            version
        ))
    }

    /// `HTTP/d.d`; a 1.x minor above 1 is served as 1.1 (RFC 9110 §6.2).
    private static func parseVersion(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> HTTPVersion? {
        guard bytes[index] == UInt8(ascii: "H"), bytes[index + 1] == UInt8(ascii: "T"), bytes[index + 2] == UInt8(ascii: "T"),
              bytes[index + 3] == UInt8(ascii: "P"), bytes[index + 4] == UInt8(ascii: "/") else { return nil }
        let major = bytes[index + 5], dot = bytes[index + 6], minor = bytes[index + 7]
        guard ASCII.isDigit(major), dot == UInt8(ascii: "."), ASCII.isDigit(minor) else { return nil }
        let version = HTTPVersion(major: Int(major - ASCII.zero), minor: Int(minor - ASCII.zero))
        return version.major == 1 && version.minor > 1 ? .http1_1 : version
    }

    /// `field-name ":" OWS field-value OWS`, with no obs-fold and no space before the colon.
    static func parseField(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, checkValueBytes: Bool = true
    ) -> Result<HTTPField, HeadParseError> {
        if bytes[start] == ASCII.space || bytes[start] == ASCII.tab {
            return .failure(.badRequest("obsolete line folding in header section"))
        }
        var index = start
        while index < end, bytes[index] != ASCII.colon {
            let byte = bytes[index]
            if byte == ASCII.space || byte == ASCII.tab { return .failure(.badRequest("whitespace before colon in header field")) }
            guard ASCII.isTokenCharacter(byte) else { return .failure(.badRequest("invalid character in header field name")) }
            index += 1
        }
        guard index < end, index > start else { return .failure(.badRequest("malformed header field")) }
        let nameEnd = index
        var valueStart = index + 1
        var valueEnd = end
        while valueStart < valueEnd, bytes[valueStart] == ASCII.space || bytes[valueStart] == ASCII.tab { valueStart += 1 }
        while valueEnd > valueStart, bytes[valueEnd - 1] == ASCII.space || bytes[valueEnd - 1] == ASCII.tab { valueEnd -= 1 }
        if checkValueBytes {
            for position in valueStart..<valueEnd {
                let byte = bytes[position]
                guard byte == ASCII.tab || (byte >= ASCII.space && byte != 0x7F) else {
                    return .failure(.badRequest("invalid character in header field value"))
                }
            }
        }
        return .success(HTTPField(
            name: String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<nameEnd]), as: UTF8.self),
            value: String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)
        ))
    }
}
