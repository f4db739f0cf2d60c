/// Which web pages on other origins may call the server from a browser (the Fetch
/// standard's CORS protocol). Listed origins are echoed back, with credentials allowed;
/// `*` opens safe methods (GET, HEAD) to every origin, never with credentials. An origin
/// is compared on its bytes, exactly as the browser sends it (`https://app.example.com`).
public struct CORSPolicy: Sendable {
    /// What a response to an admitted origin carries.
    struct Grant: Sendable, Equatable {
        /// `Access-Control-Allow-Origin`: the origin itself, or `*`.
        let allowOrigin: String
        let allowsCredentials: Bool
    }

    private let listed: [[UInt8]]
    private let anyOrigin: Bool

    /// `origins`: exact origins, or `["*"]`; empty turns CORS off.
    public init(origins: [String]) {
        anyOrigin = origins.contains("*")
        listed = origins.filter { $0 != "*" }.map { Array($0.utf8) }
    }

    public static let disabled = CORSPolicy(origins: [])

    var isEnabled: Bool { anyOrigin || !listed.isEmpty }

    /// Listed origins make answers differ by `Origin`, so caches must key on it.
    var variesByOrigin: Bool { !listed.isEmpty }

    static let allowedHeaders = "Authorization, Content-Type, X-Request-Id"
    static let exposedHeaders = "Retry-After, X-Request-Id"
    /// How long a browser may reuse a preflight answer, in seconds.
    static let maxAge = "600"

    /// The grant for a request from `origin` using `method`, or nil (no CORS headers: the
    /// browser keeps the answer from the page).
    func grant(origin: String?, method: some Collection<UInt8>) -> Grant? {
        guard let origin else { return nil }
        let bytes = Array(origin.utf8)
        if listed.contains(bytes) { return Grant(allowOrigin: origin, allowsCredentials: true) }
        if anyOrigin, Self.isSafe(method) { return Grant(allowOrigin: "*", allowsCredentials: false) }
        return nil
    }

    private static func isSafe(_ method: some Collection<UInt8>) -> Bool {
        method.elementsEqual("GET".utf8) || method.elementsEqual("HEAD".utf8)
    }

    /// The fields an answer to a request from `origin` using `method` carries: the grant's
    /// when admitted, and `Vary: Origin` whenever listed origins make answers differ.
    func fields(origin: String?, method: some Collection<UInt8>) -> [HTTPField] {
        var fields = variesByOrigin ? [HTTPField(name: "Vary", value: "Origin")] : []
        guard let grant = grant(origin: origin, method: method) else { return fields }
        fields.append(HTTPField(name: "Access-Control-Allow-Origin", value: grant.allowOrigin))
        fields.append(HTTPField(name: "Access-Control-Expose-Headers", value: Self.exposedHeaders))
        if grant.allowsCredentials { fields.append(HTTPField(name: "Access-Control-Allow-Credentials", value: "true")) }
        return fields
    }

    /// The answer to a preflight (`OPTIONS` with `Access-Control-Request-Method`) for a
    /// path whose routes allow `allowed`: 204 with `Allow`, and when the origin and the
    /// requested method are admitted, what the browser may send and for how long.
    func preflight(origin: String?, requestedMethod: String, allowed: [String]) -> Response {
        var headers = [HTTPField(name: "Allow", value: allowed.joined(separator: ", "))]
        if variesByOrigin { headers.append(HTTPField(name: "Vary", value: "Origin")) }
        if allowed.contains(where: { $0.utf8.elementsEqual(requestedMethod.utf8) }),
           let grant = grant(origin: origin, method: requestedMethod.utf8) {
            headers += [
                HTTPField(name: "Access-Control-Allow-Origin", value: grant.allowOrigin),
                HTTPField(name: "Access-Control-Allow-Methods", value: allowed.joined(separator: ", ")),
                HTTPField(name: "Access-Control-Allow-Headers", value: Self.allowedHeaders),
                HTTPField(name: "Access-Control-Max-Age", value: Self.maxAge),
            ]
            if grant.allowsCredentials { headers.append(HTTPField(name: "Access-Control-Allow-Credentials", value: "true")) }
        }
        return Response(status: 204, headers: headers)
    }
}
