import Glibc

/// Serialises response heads and bodies into a connection's output buffer.
struct ResponseWriter {
    private var cachedSecond = 0
    private var cachedDate: [UInt8] = []

    /// What the engine knows about the request a response answers.
    struct Context {
        var version: HTTPVersion
        var isHead: Bool
        var keepAlive: Bool
        var requestID: String
        /// CORS fields for the request's origin (see `CORSPolicy`); empty when CORS is off.
        var corsFields: [HTTPField] = []
        /// For the request observer (see `CompletedRequest`), filled in only when one is set.
        var method = "-"
        var route = "-"
        var startedAt: UInt64 = 0
        var forwardedFor: String?
    }

    /// Runs for every response: literals are copied from their static bytes and strings
    /// from their contiguous UTF-8, not appended as generic `UTF8View` sequences, and the
    /// CORS and response fields are written in turn, not joined into a new array first.
    /// Room for the whole answer is made once: an output that starts empty, as it does
    /// after every flush, grew three or four times per response.
    mutating func writeHead(_ response: Response, context: Context, chunked: Bool, into output: inout [UInt8]) {
        var fieldBytes = 0
        for field in context.corsFields { fieldBytes += field.name.utf8.count + field.value.utf8.count + 4 }
        for field in response.headers { fieldBytes += field.name.utf8.count + field.value.utf8.count + 4 }
        var bodyBytes = 0
        if !chunked, !context.isHead, case .bytes(let body) = response.body { bodyBytes = body.count }
        output.reserveCapacity(output.count + Self.fixedHeadBytes + context.requestID.utf8.count + fieldBytes + bodyBytes)
        output.append(contentsOf: Self.statusLine(response.status))
        output.append(contentsOf: date())
        if chunked {
            Self.append(literal: "Transfer-Encoding: chunked\r\n", to: &output)
        } else if HTTPStatus.allowsBody(response.status), let length = Self.length(of: response.body) {
            Self.append(literal: "Content-Length: ", to: &output)
            Self.append(String(length), to: &output)
            Self.append(literal: "\r\n", to: &output)
        }
        if !context.keepAlive {
            Self.append(literal: "Connection: close\r\n", to: &output)
        } else if context.version == .http1_0 {
            Self.append(literal: "Connection: keep-alive\r\n", to: &output)
        }
        Self.append(literal: "X-Request-Id: ", to: &output)
        Self.append(context.requestID, to: &output)
        Self.append(literal: "\r\nX-Content-Type-Options: nosniff\r\n", to: &output)
        for field in context.corsFields where Self.isWritable(field) { Self.append(field, to: &output) }
        for field in response.headers where Self.isWritable(field) { Self.append(field, to: &output) }
        Self.append(literal: "\r\n", to: &output)
        if !chunked, !context.isHead, case .bytes(let body) = response.body, HTTPStatus.allowsBody(response.status) {
            output.append(contentsOf: body)
        }
    }

    /// The longest status line, the date, the framing and connection fields, and the
    /// literal parts of the request id and nosniff fields, with room to spare.
    private static let fixedHeadBytes = 256

    private static func append(literal: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    private static func append(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { output.append(contentsOf: $0) }
    }

    private static func append(_ field: HTTPField, to output: inout [UInt8]) {
        append(field.name, to: &output)
        append(literal: ": ", to: &output)
        append(field.value, to: &output)
        append(literal: "\r\n", to: &output)
    }

    private static func length(of body: ResponseBody) -> Int? {
        switch body {
        case .bytes(let bytes): bytes.count
        case .file(let file): file.length
        case .stream: nil
        }
    }

    static func writeChunk(_ chunk: [UInt8], into output: inout [UInt8]) {
        guard !chunk.isEmpty else { return }
        output.append(contentsOf: String(chunk.count, radix: 16).utf8)
        output.append(contentsOf: "\r\n".utf8)
        output.append(contentsOf: chunk)
        output.append(contentsOf: "\r\n".utf8)
    }

    static let lastChunk: [UInt8] = Array("0\r\n\r\n".utf8)
    static let continueResponse: [UInt8] = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// Framing and hop-by-hop fields are the engine's; a value with CR, LF or NUL would
    /// split the response, so such a field is dropped rather than written.
    private static func isWritable(_ field: HTTPField) -> Bool {
        var (name, value) = (field.name, field.value)
        if value.withUTF8({ $0.contains { $0 == ASCII.cr || $0 == ASCII.lf || $0 == 0 } }) { return false }
        if name.withUTF8({ $0.contains { !ASCII.isTokenCharacter($0) } }) { return false }
        return !engineFields.contains { asciiCaseInsensitiveEquals($0, field.name) }
    }

    private static let engineFields = ["content-length", "transfer-encoding", "connection", "date", "x-request-id", "x-content-type-options"]

    private static let commonStatusLines: [Int: [UInt8]] = Dictionary(
        uniqueKeysWithValues: [200, 201, 204, 400, 401, 404, 409, 413, 429, 500, 503].map { ($0, makeStatusLine($0)) }
    )

    private static func statusLine(_ status: Int) -> [UInt8] {
        commonStatusLines[status] ?? makeStatusLine(status)
    }

    private static func makeStatusLine(_ status: Int) -> [UInt8] {
        Array("HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\n".utf8)
    }

    /// `Date: Sun, 22 Nov 2026 20:38:43 GMT`, formatted once per second.
    private mutating func date() -> [UInt8] {
        let now = time(nil)
        if now != cachedSecond || cachedDate.isEmpty {
            cachedSecond = now
            var parts = tm()
            var seconds = now
            gmtime_r(&seconds, &parts)
            let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let text = "Date: \(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT\r\n"
            cachedDate = Array(text.utf8)
        }
        return cachedDate
    }
}
