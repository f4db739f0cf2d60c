// libFuzzer target for the request parser (HeadParser, bodyFraming, ChunkedDecoder).
//
// Built by scripts/fuzz together with Sources/HTTPServer/Parsing/*.swift into one module,
// so it sees the parser's internal types without a package build. Every property the
// engine relies on is checked here and a violation traps, which libFuzzer reports as a
// crash with the input saved:
//   - an input gives the same outcome whole and split in two (resuming the same parser),
//     because the engine parses whatever the socket delivered so far;
//   - a complete head consumes at least one byte and no more than it was given, and
//     its parts hold only the bytes the grammar allows (no CR, LF or NUL reaches a field);
//   - the chunked decoder gives the same outcome and the same body whole and split, both
//     behind a chunked head and (inputs whose first byte is 4 modulo 5) fed directly, so
//     size lines, extensions and trailers are reached without a valid head first.

#if canImport(Glibc)
import Glibc
#endif

/// At most this many pipelined requests are followed per input, so each run stays short.
private let maxPipelinedRequests = 8
/// Body limit handed to the chunked decoder; small enough that the fuzzer reaches `tooLarge`.
private let chunkedBodyLimit = 64 * 1024

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    if size > 0, data[0] % 5 == 4 {
        _ = checkChunkedBody(UnsafeBufferPointer(rebasing: input[1...]), seed: size)
        return 0
    }
    // Small limits in a third of the runs so the limit paths (414, 431) are reached
    // without megabyte inputs; the defaults otherwise.
    let limits = size > 0 && data[0] % 3 == 0
        ? HeadLimits(maxRequestLineBytes: 64, maxHeaderSectionBytes: 256, maxFieldCount: 4)
        : HeadLimits()
    var offset = 0
    for _ in 0..<maxPipelinedRequests {
        guard offset < input.count else { break }
        let rest = UnsafeBufferPointer(rebasing: input[offset...])
        guard let consumed = checkOneRequest(rest, limits: limits, seed: size &+ offset) else { break }
        offset += consumed
    }
    return 0
}

/// Parses one request from the start of `bytes`; returns how many bytes it used when the
/// next pipelined request can be looked for, nil when the connection would be closed or
/// more bytes would be needed.
private func checkOneRequest(_ bytes: UnsafeBufferPointer<UInt8>, limits: HeadLimits, seed: Int) -> Int? {
    var whole = HeadParser(limits: limits)
    let wholeResult = whole.parse(bytes)

    // The same bytes, arriving in two reads.
    let split = splitPoint(bytes, seed: seed)
    var resumed = HeadParser(limits: limits)
    var splitResult = resumed.parse(UnsafeBufferPointer(rebasing: bytes[..<split]))
    if case .incomplete = splitResult {
        splitResult = resumed.parse(bytes)
    }
    check(outcome(wholeResult) == outcome(splitResult),
          "whole and split parse disagree (split at \(split) of \(bytes.count)): \(wholeResult) vs \(splitResult)")

    // A parser that was reset behaves as a new one.
    var reused = resumed
    reused.reset()
    check(reused.parse(bytes) == wholeResult, "reset parser disagrees with a new one")

    guard case .complete(let head, let consumed) = wholeResult else { return nil }
    check(consumed > 0 && consumed <= bytes.count, "consumed \(consumed) of \(bytes.count)")
    check(consumed >= 4 && bytes[consumed - 4] == ASCII.cr && bytes[consumed - 3] == ASCII.lf
              && bytes[consumed - 2] == ASCII.cr && bytes[consumed - 1] == ASCII.lf,
          "head does not end with CRLF CRLF")
    check(consumed <= limits.maxHeaderSectionBytes, "head longer than its limit was accepted")
    checkHead(head, limits: limits)

    // The head alone parses to the same head.
    var alone = HeadParser(limits: limits)
    check(alone.parse(UnsafeBufferPointer(rebasing: bytes[..<consumed])) == wholeResult,
          "head parsed alone differs from head with a body after it")

    _ = head.wantsKeepAlive
    _ = head.expectsContinue
    _ = head.hasUnsupportedExpectation
    let body = UnsafeBufferPointer(rebasing: bytes[consumed...])
    switch head.bodyFraming() {
    case .failure:
        return nil
    case .success(.none):
        checkFramingFields(head, framing: .none)
        return consumed
    case .success(.contentLength(let length)):
        checkFramingFields(head, framing: .contentLength(length))
        check(length > 0, "contentLength(\(length))")
        guard length <= body.count else { return nil }
        return consumed + length
    case .success(.chunked):
        checkFramingFields(head, framing: .chunked)
        guard let bodyLength = checkChunkedBody(body, seed: seed) else { return nil }
        return consumed + bodyLength
    }
}

/// Decodes a chunked body whole and in two reads; returns the bytes it used when done.
private func checkChunkedBody(_ bytes: UnsafeBufferPointer<UInt8>, seed: Int) -> Int? {
    var whole = ChunkedDecoder(limit: chunkedBodyLimit)
    var wholeBody: [UInt8] = []
    let wholeResult = whole.decode(bytes, into: &wholeBody)

    let split = splitPoint(bytes, seed: seed &* 31 &+ 7)
    var resumed = ChunkedDecoder(limit: chunkedBodyLimit)
    var splitBody: [UInt8] = []
    var splitResult = resumed.decode(UnsafeBufferPointer(rebasing: bytes[..<split]), into: &splitBody)
    switch splitResult {
    case .needMore:
        // The decoder keeps no offsets: the second read is only the new bytes.
        let second = resumed.decode(UnsafeBufferPointer(rebasing: bytes[split...]), into: &splitBody)
        if case .done(let consumed) = second { splitResult = .done(consumed: split + consumed) } else { splitResult = second }
    case .done, .failure:
        break
    }
    check(chunkOutcome(wholeResult) == chunkOutcome(splitResult),
          "whole and split chunked decode disagree (split at \(split) of \(bytes.count)): \(wholeResult) vs \(splitResult)")
    check(wholeBody.count <= chunkedBodyLimit, "chunked body of \(wholeBody.count) bytes passed the limit")
    check(wholeBody.count <= bytes.count, "decoded body longer than its encoding")

    switch wholeResult {
    case .done(let consumed):
        check(consumed >= 5 && consumed <= bytes.count, "chunked consumed \(consumed) of \(bytes.count)")
        check(bytes[consumed - 2] == ASCII.cr && bytes[consumed - 1] == ASCII.lf, "chunked body does not end with CRLF")
        check(wholeBody == splitBody, "whole and split chunked decode give different bodies")
        return consumed
    case .needMore:
        check(wholeResult == splitResult, "needMore whole but not split")
        return nil
    case .failure:
        return nil
    }
}

// MARK: - Invariants

private func checkHead(_ head: RequestHead, limits: HeadLimits) {
    check(!head.method.isEmpty && head.method.utf8.allSatisfy(ASCII.isTokenCharacter), "method is not a token")
    check(!head.target.isEmpty && head.target.utf8.allSatisfy { $0 > ASCII.space && $0 < 0x7F }, "target has a forbidden byte")
    check(head.version.major == 1 && (head.version.minor == 0 || head.version.minor == 1), "version \(head.version)")
    check(head.method.utf8.count + head.target.utf8.count + 10 <= limits.maxRequestLineBytes, "request line over its limit")
    check(head.fields.count <= limits.maxFieldCount, "\(head.fields.count) fields accepted")
    for field in head.fields {
        check(!field.name.isEmpty && field.name.utf8.allSatisfy(ASCII.isTokenCharacter), "field name is not a token")
        check(field.value.utf8.allSatisfy { $0 == ASCII.tab || ($0 >= ASCII.space && $0 != 0x7F) }, "field value has a control byte")
        check(field.value.utf8.first.map { $0 != ASCII.space && $0 != ASCII.tab } ?? true, "field value has leading whitespace")
        check(field.value.utf8.last.map { $0 != ASCII.space && $0 != ASCII.tab } ?? true, "field value has trailing whitespace")
    }
}

/// A framing that was accepted must be the only reading of the framing fields.
private func checkFramingFields(_ head: RequestHead, framing: BodyFraming) {
    let transferCodings = head.fieldValues("transfer-encoding")
    let contentLengths = head.fieldValues("content-length")
    check(transferCodings.isEmpty || contentLengths.isEmpty, "both Content-Length and Transfer-Encoding accepted")
    check(head.fieldValues("host").count <= 1, "more than one Host accepted")
    switch framing {
    case .chunked:
        check(!transferCodings.isEmpty && head.version == .http1_1, "chunked without Transfer-Encoding or in HTTP/1.0")
    case .contentLength, .none:
        check(transferCodings.isEmpty, "Transfer-Encoding ignored")
    }
}

// MARK: - Support

/// Outcomes compared between whole and split parses, failures by their exact error: the
/// parser checks limits byte by byte, so how the bytes arrive must not change the status.
private enum Outcome: Equatable {
    case complete(RequestHead, consumed: Int)
    case incomplete
    case failure(HeadParseError)
}

private func outcome(_ result: HeadParseResult) -> Outcome {
    switch result {
    case .complete(let head, let consumed): .complete(head, consumed: consumed)
    case .incomplete: .incomplete
    case .failure(let error): .failure(error)
    }
}

private enum ChunkOutcome: Equatable {
    case needMore
    case done(consumed: Int)
    case failure(ChunkedDecodeError?)
}

private func chunkOutcome(_ result: ChunkedDecodeResult) -> ChunkOutcome {
    switch result {
    case .needMore: .needMore
    case .done(let consumed): .done(consumed: consumed)
    case .failure(let error): .failure(error)
    }
}

/// A split point in 0...count taken from the data itself, so a crash reproduces from its file.
private func splitPoint(_ bytes: UnsafeBufferPointer<UInt8>, seed: Int) -> Int {
    guard bytes.count > 0 else { return 0 }
    var hash = UInt64(truncatingIfNeeded: seed) &* 0x9E37_79B9_7F4A_7C15
    for byte in bytes.prefix(16) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    if let last = bytes.last { hash = (hash ^ UInt64(last)) &* 0x100_0000_01B3 }
    return Int(hash % UInt64(bytes.count + 1))
}

private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        let text = "ParserFuzzer invariant failed: " + message() + "\n"
        text.withCString { _ = fputs($0, stderr) }
        fatalError("ParserFuzzer invariant failed")
    }
}
