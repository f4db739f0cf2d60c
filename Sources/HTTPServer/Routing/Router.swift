/// How a route's handler answers. Which thread does the work is the handler's business:
/// the engine only starts it on the loop and writes the answer, in request order.
public enum RouteHandler: Sendable {
    /// Answered on the event loop at once: for cheap work (a health check, a token check,
    /// a primary-key read), where any hop would cost more than the request. A thrown error
    /// goes to the server's error responder.
    case inline(@Sendable (Request) throws -> Response)
    /// Started on the loop, answered later from any thread through the sink (a task, a
    /// pool thread, a database writer). The handler must answer exactly once.
    case deferred(@Sendable (Request, ResponseSink) -> Void)
}

public struct Route: Sendable {
    public let method: String
    public let pattern: String
    /// Largest body accepted, decided from `Content-Length` before the body is read (413).
    public let bodyLimit: Int
    /// Decides from the head alone, before any body byte is read or the body's size is
    /// judged, whether the request is acceptable at all (a JSON route answering 415 to
    /// another media type): nil lets it through, a response refuses it.
    public let admit: (@Sendable (RequestHead) -> Response?)?
    /// Makes the receiver of a body taken in pieces (see `RequestBodyReceiver`); nil keeps
    /// the body whole in `Request.body`.
    public let receiveBody: (@Sendable (RequestHead) throws -> any RequestBodyReceiver)?
    public let handler: RouteHandler
    fileprivate let segments: [PatternSegment]
}

fileprivate enum PatternSegment: Sendable, Equatable {
    case literal(String)
    case parameter(String)
}

public enum RouteMatch: Sendable {
    case found(Route, parameters: [String: String])
    case methodNotAllowed(allowed: [String])
    /// `OPTIONS` for a path that has routes but no `OPTIONS` route of its own: the engine
    /// answers 204 with `Allow` (a CORS layer registers its own `OPTIONS` routes).
    case options(allowed: [String])
    case notFound
}

/// Maps method and path to a route. Patterns are literal segments and `{name}` parameters;
/// built once before the server starts, then only read (from every loop at once).
public struct Router: Sendable {
    /// The body limit of routes that do not name one: the contract's 64 KiB for JSON.
    public static let defaultBodyLimit = 64 * 1024

    private var routes: [Route] = []
    /// Routes without parameters by path, then method: the common case costs one lookup.
    private var literalRoutes: [String: [String: Route]] = [:]

    public init() {}

    public mutating func add(
        _ method: String, _ pattern: String, bodyLimit: Int = Router.defaultBodyLimit,
        admit: (@Sendable (RequestHead) -> Response?)? = nil,
        receiveBody: (@Sendable (RequestHead) throws -> any RequestBodyReceiver)? = nil, _ handler: RouteHandler
    ) {
        let segments: [PatternSegment] = pattern.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map { part in
            part.hasPrefix("{") && part.hasSuffix("}") ? .parameter(String(part.dropFirst().dropLast())) : .literal(String(part))
        }
        let route = Route(
            method: method, pattern: pattern, bodyLimit: bodyLimit, admit: admit, receiveBody: receiveBody, handler: handler, segments: segments
        )
        // `/a/{x}` and `/a/{y}` are the same route: the second could never match.
        precondition(!routes.contains { $0.method == method && Self.sameShape($0.segments, segments) }, "route \(method) \(pattern) registered twice")
        routes.append(route)
        if !segments.contains(where: { if case .parameter = $0 { true } else { false } }) {
            literalRoutes[pattern, default: [:]][method] = route
        }
    }

    /// An inline route: see `RouteHandler.inline`.
    public mutating func add(_ method: String, _ pattern: String, bodyLimit: Int = Router.defaultBodyLimit, inline handler: @escaping @Sendable (Request) throws -> Response) {
        add(method, pattern, bodyLimit: bodyLimit, .inline(handler))
    }

    /// Every route's method and pattern, in the order they were added.
    public var table: [(method: String, pattern: String)] { routes.map { ($0.method, $0.pattern) } }

    /// HEAD falls back to GET (the engine drops the body). A path that is some route's
    /// literal pattern is that resource alone: its methods are the literal routes', and a
    /// parameter route of the same shape does not take the rest (`PATCH
    /// /v1/auth/passkeys/register` is not a rename of a passkey named "register"), so
    /// routing and `Allow` say the same thing.
    public func match(method: String, path: String) -> RouteMatch {
        if let byMethod = literalRoutes[path] {
            if let route = byMethod[method] ?? (method == "HEAD" ? byMethod["GET"] : nil) {
                return .found(route, parameters: [:])
            }
            return Self.refusal(of: method, allowing: routes.filter { $0.pattern == path }.map(\.method))
        }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        var allowed: [String] = []
        for route in routes where route.segments.count == parts.count {
            guard let parameters = Self.bind(route.segments, to: parts) else { continue }
            if route.method == method || (method == "HEAD" && route.method == "GET" && !routes.contains { $0.method == "HEAD" && Self.sameShape($0.segments, route.segments) }) {
                return .found(route, parameters: parameters)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        return Self.refusal(of: method, allowing: allowed)
    }

    /// 405 (or OPTIONS' answer) naming `allowed`, with HEAD where GET is and OPTIONS always;
    /// 404 when no route has this path at all.
    private static func refusal(of method: String, allowing allowed: [String]) -> RouteMatch {
        var allowed = allowed
        guard !allowed.isEmpty else { return .notFound }
        if allowed.contains("GET") && !allowed.contains("HEAD") { allowed.append("HEAD") }
        if !allowed.contains("OPTIONS") { allowed.append("OPTIONS") }
        return method == "OPTIONS" ? .options(allowed: allowed) : .methodNotAllowed(allowed: allowed)
    }

    private static func sameShape(_ a: [PatternSegment], _ b: [PatternSegment]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { pair in
            switch pair {
            case (.literal(let x), .literal(let y)): x == y
            case (.parameter, .parameter): true
            default: false
            }
        }
    }

    private static func bind(_ segments: [PatternSegment], to parts: ArraySlice<Substring>) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal):
                guard part == literal else { return nil }
            case .parameter(let name):
                guard !part.isEmpty, let value = PercentDecoding.decode(part) else { return nil }
                parameters[name] = value
            }
        }
        return parameters
    }
}
