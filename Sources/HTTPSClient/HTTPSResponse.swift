/// A final answer (not 1xx, not 3xx) read whole: status, headers as sent, body decoded
/// from its framing (Content-Length, chunked, or up to the close).
public struct HTTPSResponse: Sendable, Equatable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    /// The first header named `name`, compared as ASCII bytes without case.
    public func header(_ name: String) -> String? {
        headers.first { ResponseHead.namesEqual($0.name, name) }?.value
    }

    public static func == (lhs: HTTPSResponse, rhs: HTTPSResponse) -> Bool {
        lhs.status == rhs.status && lhs.body == rhs.body
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }
}
