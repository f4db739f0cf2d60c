/// What a handler answers. The engine adds framing (`Content-Length` or chunked),
/// `Connection`, `Date`, `X-Request-Id` and `X-Content-Type-Options`.
public struct Response: Sendable {
    public var status: Int
    public var headers: [HTTPField]
    public var body: ResponseBody

    public init(status: Int, headers: [HTTPField] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = .bytes(body)
    }

    /// A chunked response whose body a producer writes later through `stream`.
    public init(status: Int, headers: [HTTPField] = [], stream: ResponseStream) {
        self.status = status
        self.headers = headers
        self.body = .stream(stream)
    }

    /// A body read from `file` as the client takes it, with its `Content-Length`.
    public init(status: Int, headers: [HTTPField] = [], file: FileBody) {
        self.status = status
        self.headers = headers
        self.body = .file(file)
    }

    public static func json(_ status: Int, _ body: [UInt8], headers: [HTTPField] = []) -> Response {
        Response(status: status, headers: [HTTPField(name: "Content-Type", value: "application/json; charset=utf-8")] + headers, body: body)
    }

    public func header(_ name: String) -> String? {
        headers.first { asciiCaseInsensitiveEquals($0.name, name) }?.value
    }
}

public enum ResponseBody: Sendable {
    case bytes([UInt8])
    case stream(ResponseStream)
    case file(FileBody)
}
