/// One request as a handler sees it: the validated head, the body (whole, or as taken by
/// the route's receiver), and what the router and engine learned about it.
public struct Request: Sendable {
    public let head: RequestHead
    /// The path of the request target without its query, as sent (not percent-decoded).
    public let path: String
    /// The query without its `?`, if the target had one.
    public let query: String?
    public var body: [UInt8]
    /// The receiver that took the body in pieces, for a route with `receiveBody`.
    public var receivedBody: (any RequestBodyReceiver)?
    /// Values of `{name}` segments of the route pattern, percent-decoded.
    public var pathParameters: [String: String]
    /// Echoed from a sane `X-Request-Id`, else made up; every response carries it.
    public let requestID: String
    /// The address of the peer socket (a proxy's, when behind one).
    public let remoteAddress: String
    /// Which event loop runs this request, for per-loop resources such as a read connection.
    public let eventLoopIndex: Int

    public var method: String { head.method }

    public init(
        head: RequestHead, body: [UInt8] = [], pathParameters: [String: String] = [:],
        requestID: String, remoteAddress: String, eventLoopIndex: Int = 0
    ) {
        self.init(head: head, target: RequestTarget.split(head.target), body: body, pathParameters: pathParameters,
                  requestID: requestID, remoteAddress: remoteAddress, eventLoopIndex: eventLoopIndex)
    }

    /// With the target already split (the engine splits it once, to route).
    init(
        head: RequestHead, target: (path: String, query: String?), body: [UInt8], pathParameters: [String: String],
        requestID: String, remoteAddress: String, eventLoopIndex: Int
    ) {
        self.head = head
        (path, query) = target
        self.body = body
        self.pathParameters = pathParameters
        self.requestID = requestID
        self.remoteAddress = remoteAddress
        self.eventLoopIndex = eventLoopIndex
    }

    /// The first value of a header field, ignoring the case of its name.
    public func header(_ name: String) -> String? { head.field(name) }

    /// The first value of a query parameter, percent-decoded (`+` is a space, as in forms).
    public func queryParameter(_ name: String) -> String? {
        query.flatMap { Self.firstValue(of: name, in: Substring($0)) }
    }

    /// The first value of a field of an `application/x-www-form-urlencoded` body.
    public func formField(_ name: String) -> String? {
        Self.firstValue(of: name, in: Substring(decoding: body, as: UTF8.self))
    }

    /// `name=value&...` pairs, percent-decoded with `+` as a space; names are compared as
    /// decoded bytes.
    private static func firstValue(of name: String, in encoded: Substring) -> String? {
        for pair in encoded.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if let decoded = PercentDecoding.decode(parts[0], plusIsSpace: true), decoded.utf8.elementsEqual(name.utf8) {
                return parts.count > 1 ? PercentDecoding.decode(parts[1], plusIsSpace: true) : ""
            }
        }
        return nil
    }
}

enum RequestTarget {
    /// Splits origin-form and absolute-form targets (RFC 9112 §3.2) into path and query.
    /// Works on UTF-8 code units: the delimiters are ASCII, and Character-based String
    /// operations cost more than the rest of routing.
    static func split(_ target: String) -> (path: String, query: String?) {
        let utf8 = target.utf8
        var pathStart = utf8.startIndex
        if utf8.first != UInt8(ascii: "/"), let afterScheme = authorityStart(utf8) {
            pathStart = utf8[afterScheme...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? utf8.endIndex
        }
        let mark = utf8[pathStart...].firstIndex(of: UInt8(ascii: "?"))
        var path = String(target[pathStart..<(mark ?? utf8.endIndex)])
        if path.isEmpty { path = "/" }
        return (path, mark.map { String(target[utf8.index(after: $0)...]) })
    }

    /// After `http://` or `https://` (any case), or nil for a target of another form.
    private static func authorityStart(_ utf8: String.UTF8View) -> String.Index? {
        for scheme in ["http://", "https://"] where utf8.count > scheme.utf8.count {
            let end = utf8.index(utf8.startIndex, offsetBy: scheme.utf8.count)
            if zip(utf8[..<end], scheme.utf8).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) { return end }
        }
        return nil
    }
}

enum PercentDecoding {
    /// Nil when an escape is malformed or the bytes are not UTF-8.
    static func decode(_ text: Substring, plusIsSpace: Bool = false) -> String? {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "%") || (plusIsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(text)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            if byte == UInt8(ascii: "%") {
                guard let high = iterator.next().flatMap(ASCII.hexValue), let low = iterator.next().flatMap(ASCII.hexValue) else { return nil }
                bytes.append(UInt8(high * 16 + low))
            } else if plusIsSpace && byte == UInt8(ascii: "+") {
                bytes.append(ASCII.space)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
