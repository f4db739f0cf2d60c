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

    mutating func writeHead(_ response: Response, context: Context, chunked: Bool, into output: inout [UInt8]) {
        output.append(contentsOf: Self.statusLine(response.status))
        output.append(contentsOf: date())
        if chunked {
            output.append(contentsOf: "Transfer-Encoding: chunked\r\n".utf8)
        } else if HTTPStatus.allowsBody(response.status), let length = Self.length(of: response.body) {
            output.append(contentsOf: "Content-Length: ".utf8)
            output.append(contentsOf: String(length).utf8)
            output.append(contentsOf: "\r\n".utf8)
        }
        if !context.keepAlive {
            output.append(contentsOf: "Connection: close\r\n".utf8)
        } else if context.version == .http1_0 {
            output.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        output.append(contentsOf: "X-Request-Id: ".utf8)
        output.append(contentsOf: context.requestID.utf8)
        output.append(contentsOf: "\r\nX-Content-Type-Options: nosniff\r\n".utf8)
        for field in context.corsFields + response.headers where Self.isWritable(field) {
            output.append(contentsOf: field.name.utf8)
            output.append(contentsOf: ": ".utf8)
            output.append(contentsOf: field.value.utf8)
            output.append(contentsOf: "\r\n".utf8)
        }
        output.append(contentsOf: "\r\n".utf8)
        if !chunked, !context.isHead, case .bytes(let body) = response.body, HTTPStatus.allowsBody(response.status) {
            output.append(contentsOf: body)
        }
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
        if field.value.utf8.contains(where: { $0 == ASCII.cr || $0 == ASCII.lf || $0 == 0 }) { return false }
        if field.name.utf8.contains(where: { !ASCII.isTokenCharacter($0) }) { return false }
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
