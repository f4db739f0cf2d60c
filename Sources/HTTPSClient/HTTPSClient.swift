import ClientSocket

/// The server's outbound HTTPS: the sign-in providers' key sets and token endpoints. One
/// request per connection (`Connection: close`), blocking the calling thread, so it runs
/// off the event loops. Every step has a deadline and the whole exchange another; the
/// server's certificate and host name are verified (`TLSContext`); redirects are refused;
/// the answer's head and body are bounded.
public struct HTTPSClient: Sendable {
    public struct Limits: Sendable {
        /// Connecting, the TLS handshake, sending: each must finish within this.
        public var stepTimeout: Double = 5
        /// The whole exchange, reading the answer included.
        public var totalTimeout: Double = 10
        public var maximumHeadBytes = 16 * 1024
        public var maximumBodyBytes = 1024 * 1024

        public init() {}
    }

    private let context: TLSContext
    private let limits: Limits
    private let userAgent: String

    public init(context: TLSContext, limits: Limits = Limits(), userAgent: String = "Latchkey") {
        self.context = context
        self.limits = limits
        self.userAgent = userAgent
    }

    public func get(_ url: String, headers: [(name: String, value: String)] = []) throws(HTTPSError) -> HTTPSResponse {
        try exchange(method: "GET", url: url, headers: headers, body: nil)
    }

    /// A form post (`application/x-www-form-urlencoded`), as OAuth token endpoints take it.
    public func post(_ url: String, form: [(name: String, value: String)], headers: [(name: String, value: String)] = []) throws(HTTPSError) -> HTTPSResponse {
        let body = form.map { FormEncoding.encoded($0.name) + "=" + FormEncoding.encoded($0.value) }.joined(separator: "&")
        return try exchange(
            method: "POST", url: url, headers: headers + [("Content-Type", "application/x-www-form-urlencoded")], body: Array(body.utf8))
    }

    private func exchange(method: String, url text: String, headers: [(name: String, value: String)], body: [UInt8]?) throws(HTTPSError) -> HTTPSResponse {
        let url = try HTTPSURL(text)
        let total = Deadline(secondsFromNow: limits.totalTimeout)
        let step = { Deadline(secondsFromNow: limits.stepTimeout).capped(by: total) }
        let request = try Self.request(method: method, url: url, headers: [("User-Agent", userAgent), ("Accept", "application/json")] + headers, body: body)
        let socket: ClientSocket
        do {
            socket = try ClientSocket(host: url.host, port: url.port, deadline: step())
            try socket.startTLS(context: context, host: url.host, deadline: step())
            try socket.write(request, step: "sending the request", deadline: step())
        } catch {
            throw .socket(error)
        }
        var reader = ResponseReader(socket: socket, maximumHeadBytes: limits.maximumHeadBytes, maximumBodyBytes: limits.maximumBodyBytes, deadline: total)
        return try reader.read(forHEAD: method == "HEAD")
    }

    /// The request's bytes. A header name or value with a byte outside visible ASCII (a CR
    /// or LF above all) is refused, so nothing can add a header or a second request.
    static func request(method: String, url: HTTPSURL, headers: [(name: String, value: String)], body: [UInt8]?) throws(HTTPSError) -> [UInt8] {
        var text = "\(method) \(url.target) HTTP/1.1\r\nHost: \(url.hostHeader)\r\nConnection: close\r\n"
        for (name, value) in headers {
            guard !name.isEmpty, name.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: ":") }),
                  value.utf8.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x09 })
            else { throw .badURL("a request header with bytes outside visible ASCII") }
            text += "\(name): \(value)\r\n"
        }
        if let body { text += "Content-Length: \(body.count)\r\n" }
        return Array((text + "\r\n").utf8) + (body ?? [])
    }
}
