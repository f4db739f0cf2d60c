import HTTPServer

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

    init(_ completed: CompletedRequest) {
        method = Self.method(completed.method)
        // A template comes from the router and starts with `/`; the engine says `-` when
        // no route answered.
        route = completed.route.utf8.first == UInt8(ascii: "/") ? completed.route : Self.unmatchedRoute
    }

    /// Compared as bytes: methods are case-sensitive (RFC 9110 §9.1), so `get` is `OTHER`.
    /// Runs for every request: contiguous bytes and the length first, not a generic walk
    /// of each string's UTF-8 view.
    static func method(_ token: String) -> String {
        var token = token
        return token.withUTF8 { sent in
            for known in knownMethods where known.utf8.count == sent.count {
                var known = known
                if known.withUTF8({ $0.elementsEqual(sent) }) { return known }
            }
            return otherMethod
        }
    }
}
