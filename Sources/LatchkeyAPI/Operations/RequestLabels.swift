/// How `/metrics` and the access log name a request's method and route: from fixed sets
/// only. A method token or a path as the client sent it would be a new series for each
/// distinct one (a counter and a histogram, kept until the process exits, and in every
/// scrape), and the stranger's own words in the operator's log.
struct RequestLabels {
    /// One of `knownMethods`, or `OTHER`.
    let method: String
    /// The matched route's template, or `unmatched`.
    let route: String

    /// The methods HTTP defines that an API client sends (`OPTIONS` for CORS preflights);
    /// every other token, and an answer given before a method was read (`-`), is `OTHER`.
    static let knownMethods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
    static let otherMethod = "OTHER"
    /// Every answer no route gave: 404, 405, a malformed request, a timeout.
    static let unmatchedRoute = "unmatched"

    /// A `CompletedRequest`'s two fields, not the whole of it: handing that over copied it
    /// (each of its strings retained and released) on every request.
    init(method: String, route: String) {
        self.method = Self.method(method)
        // A template comes from the router and starts with `/`; the engine says `-` when
        // no route answered.
        self.route = route.utf8.first == UInt8(ascii: "/") ? route : Self.unmatchedRoute
    }

    /// Compared as bytes: methods are case-sensitive (RFC 9110 §9.1), so `get` is `OTHER`.
    /// Runs for every request, so each token is packed into one integer once and compared
    /// as that, not walked byte by byte against each known method.
    static func method(_ token: String) -> String {
        guard let sent = packed(token) else { return otherMethod }
        for (known, name) in packedMethods where known == sent { return name }
        return otherMethod
    }

    private static let packedMethods = knownMethods.map { (packed($0)!, $0) }

    /// The token's bytes in one integer, its length in the top byte: two tokens pack the
    /// same exactly when their bytes are the same. Nil above 7 bytes, longer than any
    /// known method.
    private static func packed(_ token: String) -> UInt64? {
        var token = token
        return token.withUTF8 { bytes in
            guard bytes.count <= 7 else { return nil }
            var value = UInt64(bytes.count) << 56
            for (index, byte) in bytes.enumerated() { value |= UInt64(byte) << (8 * UInt64(index)) }
            return value
        }
    }
}
