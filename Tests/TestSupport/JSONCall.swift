import Foundation

/// One HTTP response read over a `RawConnection`, with its body parsed as JSON when it is
/// a JSON object.
public struct JSONResponse: CustomStringConvertible {
    public let status: Int
    public let headers: [(String, String)]
    public let text: String
    public let json: [String: Any]?

    public init(_ raw: RawResponse) {
        status = raw.status
        headers = raw.headers
        text = raw.text
        json = (try? JSONSerialization.jsonObject(with: Data(raw.body), options: [.fragmentsAllowed])) as? [String: Any]
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// The problem's stable `code`, or a body field by name.
    public var code: String? { json?["code"] as? String }
    public subscript(_ key: String) -> Any? { json?[key] }

    public var description: String { "\(status) \(text)" }
}

/// What a request carries as its body: JSON built from a dictionary, or exact text with
/// the content type given (nil sends none).
public enum RequestBody {
    case json([String: Any])
    case raw(String, contentType: String?)
    case bytes([UInt8], contentType: String?)
}

/// Sends one request over a fresh connection (`Connection: close`) and reads the answer:
/// each call stands alone, so a test can fire them from many threads at once.
public func call(
    port: Int, _ method: String, _ path: String, body: RequestBody? = nil, token: String? = nil,
    headers: [String: String] = [:], timeout: Double = 30
) throws -> JSONResponse {
    var bytes: [UInt8] = []
    var contentType: String?
    switch body {
    case .json(let object)?:
        bytes = Array(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
        contentType = "application/json"
    case .raw(let text, let type)?:
        bytes = Array(text.utf8)
        contentType = type
    case .bytes(let raw, let type)?:
        bytes = raw
        contentType = type
    case nil:
        break
    }
    var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n"
    let named = Set(headers.keys.map { $0.lowercased() })
    if let token, !named.contains("authorization") { head += "Authorization: Bearer \(token)\r\n" }
    if let contentType, !named.contains("content-type") { head += "Content-Type: \(contentType)\r\n" }
    if !named.contains("user-agent") { head += "User-Agent: LatchkeyEndToEndTests\r\n" }
    for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
    if body != nil || ["POST", "PUT", "PATCH", "DELETE"].contains(method) { head += "Content-Length: \(bytes.count)\r\n" }
    head += "\r\n"
    let connection = try RawConnection(port: port, timeout: timeout)
    try connection.send(Array(head.utf8) + bytes)
    return JSONResponse(try connection.readResponse(isHead: method == "HEAD"))
}
