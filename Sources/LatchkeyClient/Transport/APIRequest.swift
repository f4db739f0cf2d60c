import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One request of the contract before a token is put on it: method, path (with any query,
/// already percent-encoded) and body. Retrying after a refresh sends the same value again.
struct APIRequest: Sendable {
    enum Body: Sendable {
        case json(Data)
        /// Picture bytes, sent with their media type.
        case bytes(Data, mediaType: String)
    }

    var method: String
    var path: String
    var body: Body?
    /// Overrides the configuration's request timeout (refresh uses a short one).
    var timeout: TimeInterval?

    init(_ method: String, _ path: String, body: Body? = nil, timeout: TimeInterval? = nil) {
        self.method = method
        self.path = path
        self.body = body
        self.timeout = timeout
    }

    /// A request with a JSON body.
    static func json(_ method: String, _ path: String, _ value: some Encodable, timeout: TimeInterval? = nil) throws -> APIRequest {
        APIRequest(method, path, body: .json(try JSONCoding.encode(value)), timeout: timeout)
    }

    /// Percent-encodes one path segment or query value: everything but ASCII letters,
    /// digits, `-`, `_` and `~`. Dots are encoded too, so a name such as `..` is sent as a
    /// name and never read as a step up the path (the server decodes it back).
    static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_~")
}

/// An answer as it came off the wire: status, header fields (names lower-cased) and body.
struct HTTPAnswer: Sendable {
    let status: Int
    let headers: [String: String]
    let body: Data

    init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init(_ response: HTTPURLResponse, body: Data) {
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        self.init(status: response.statusCode, headers: headers, body: body)
    }

    var isSuccess: Bool { (200..<300).contains(status) }

    /// The answer's body as `T`, or the refusal it carries as a `LatchkeyError`.
    func decoded<T: Decodable>(_ type: T.Type) throws -> T {
        guard isSuccess else { throw refusal }
        do {
            return try JSONCoding.decode(type, from: body)
        } catch {
            throw LatchkeyError.unexpectedResponse(status: status, body: String(decoding: body.prefix(512), as: UTF8.self))
        }
    }

    /// Nothing to read from a success (202, 204); a refusal is thrown.
    func expectSuccess() throws {
        guard isSuccess else { throw refusal }
    }

    /// The problem details of a refusal, with `Retry-After` and `X-Request-Id` taken from
    /// the header; an answer without them (a proxy's page) is `unexpectedResponse`.
    var problem: Problem? {
        guard !isSuccess, var problem = try? JSONCoding.decode(Problem.self, from: body) else { return nil }
        problem.retryAfter = headers["retry-after"].flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        problem.requestID = headers["x-request-id"]
        return problem
    }

    var refusal: LatchkeyError {
        if let problem { return .server(problem) }
        return .unexpectedResponse(status: status, body: String(decoding: body.prefix(512), as: UTF8.self))
    }
}
