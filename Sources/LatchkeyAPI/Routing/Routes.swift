import HTTPServer
import LatchkeyCore

/// What a route needs before its handler runs: a caller proven by a bearer token.
enum Auth: Sendable {
    case bearer
}

/// How an area declares its routes: each says what its handler needs (a store read, a
/// write, or nothing but memory), whether it needs a caller, and which per-address budget
/// it draws on. The caller is checked, then the throttle, then the handler runs; handlers
/// never authenticate or throttle themselves. Where a handler runs is `HandlerPlacement`'s
/// business, not the area's.
struct Routes {
    typealias Admission = @Sendable (RequestHead) -> Response?
    typealias BodyReceiver = @Sendable (RequestHead) throws -> any RequestBodyReceiver

    private(set) var router = Router()
    private let placement: HandlerPlacement
    private let throttle: RequestThrottle
    private let verifier: AccessTokenVerifier

    init(placement: HandlerPlacement, throttle: RequestThrottle, verifier: AccessTokenVerifier) {
        self.placement = placement
        self.throttle = throttle
        self.verifier = verifier
    }

    /// A handler that needs nothing but the request and memory.
    mutating func plain(
        _ method: String, _ path: String, admit: Admission? = nil, throttle group: RequestThrottle.Group? = nil,
        _ body: @escaping @Sendable (Request) throws -> Response
    ) {
        guard let group else { return router.add(method, path, admit: admit, placement.plain(body)) }
        let throttle = throttle
        router.add(method, path, admit: admit, placement.plain { request in
            try throttle.admit(request, to: group)
            return try body(request)
        })
    }

    /// A `GET` that reads the store, for anyone.
    mutating func read(
        _ path: String, admit: Admission? = nil, throttle group: RequestThrottle.Group? = nil,
        _ body: @escaping @Sendable (Request, StoreReader) throws -> Response
    ) {
        let throttle = throttle
        router.add("GET", path, admit: admit, placement.read { request, reader in
            try group.map { try throttle.admit(request, to: $0) }
            return try body(request, reader)
        })
    }

    /// A `GET` that reads the store for a caller.
    mutating func read(_ path: String, auth: Auth, _ body: @escaping @Sendable (Request, Authenticated, StoreReader) throws -> Response) {
        router.add("GET", path, placement.read(bearer: body))
    }

    /// A `GET` whose one read is the bearer check: the caller's session and account.
    mutating func read(_ path: String, auth: Auth, _ body: @escaping @Sendable (Request, Authenticated) throws -> Response) {
        router.add("GET", path, placement.read(caller: body))
    }

    /// Anything that may wait (a password hash, a transaction, mail), for anyone.
    mutating func write(
        _ method: String, _ path: String, admit: Admission? = nil, throttle group: RequestThrottle.Group? = nil,
        _ body: @escaping @Sendable (Request) async throws -> Response
    ) {
        let throttle = throttle
        router.add(method, path, admit: admit, placement.write { request in
            try group.map { try throttle.admit(request, to: $0) }
            return try await body(request)
        })
    }

    /// Anything that may wait, for a caller. With `receiveBody` (a body taken in pieces, up
    /// to `bodyLimit`), a request whose token fails its own checks is refused from the head,
    /// before any byte of the body is read; the full check runs before the handler.
    mutating func write(
        _ method: String, _ path: String, auth: Auth, bodyLimit: Int = Router.defaultBodyLimit, admit: Admission? = nil,
        receiveBody: BodyReceiver? = nil, throttle group: RequestThrottle.Group? = nil,
        _ body: @escaping @Sendable (Request, Authenticated) async throws -> Response
    ) {
        let throttle = throttle
        let admission = receiveBody == nil ? admit : signedTokenFirst(then: admit)
        router.add(method, path, bodyLimit: bodyLimit, admit: admission, receiveBody: receiveBody, placement.write(bearer: { request, caller in
            try group.map { try throttle.admit(request, to: $0) }
            return try await body(request, caller)
        }))
    }

    /// A write its handler hands to the database itself, answering through `sink` once it
    /// is durable (a refresh): no hop of its own before the database's.
    mutating func write(_ method: String, _ path: String, admit: Admission? = nil, answering body: @escaping @Sendable (Request, ResponseSink) -> Void) {
        router.add(method, path, admit: admit, .deferred(body))
    }

    private func signedTokenFirst(then admit: Admission?) -> Admission {
        let verifier = verifier
        return { head in
            do throws(AccessError) {
                try verifier.checkSignedToken(authorization: head.field("Authorization"))
            } catch {
                return ErrorResponder.problem(for: error).response()
            }
            return admit?(head)
        }
    }
}
