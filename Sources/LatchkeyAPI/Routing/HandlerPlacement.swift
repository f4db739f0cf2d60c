import HTTPServer
import LatchkeyCore
import Threads

/// Where each kind of handler runs, per backend: the one place that knows it. Areas
/// declare what a handler needs (`Routes`); this maps that onto the engine's two kinds,
/// answered now (`.inline`) or later through a sink (`.deferred`).
///
/// SQLite: a store read is a local primary-key lookup, cheaper than any hop to another
/// thread, so reads and bearer checks run inline on the event loop, each loop on its own
/// read connection. PostgreSQL: a read is a network round trip, which an event loop must
/// never wait for: reads go to a pool of threads of their own (`BoundedThreadPool`, not
/// Swift concurrency, whose threads must not block either; a full queue answers 503 with
/// `Retry-After`), and a bearer check with no other read joins the next batch of session
/// reads (`SessionReadBatches`).
///
/// A write (a password hash, a transaction, mail: anything that may wait) runs on Swift
/// concurrency on both, once its caller is known.
struct HandlerPlacement: Sendable {
    private enum Backend: Sendable {
        case local
        /// `workerCaches[i]` is pool thread `i`'s own verified-token cache: a cache is not
        /// thread-safe, and a pool thread serves requests of every loop.
        case network(pool: BoundedThreadPool, batches: SessionReadBatches, workerCaches: PerThread<VerifiedTokenCache>)
    }

    private let backend: Backend
    private let readers: PerThread<StoreReader>
    private let tokenCaches: PerThread<VerifiedTokenCache>
    private let verifier: AccessTokenVerifier
    private let errors: ErrorResponder

    init(core: CoreServices, eventLoops: Int, errors: ErrorResponder) throws {
        readers = try PerThread(count: eventLoops) { _ in try core.makeReader() }
        tokenCaches = PerThread(count: eventLoops) { _ in VerifiedTokenCache() }
        verifier = core.verifier
        self.errors = errors
        if let pool = core.makeStoreReadPool(), let batches = core.sessionReadBatches {
            backend = .network(pool: pool, batches: batches, workerCaches: PerThread(count: pool.threads) { _ in VerifiedTokenCache() })
        } else {
            backend = .local
        }
    }

    /// Needs nothing but the request and memory: on the loop everywhere.
    func plain(_ body: @escaping @Sendable (Request) throws -> Response) -> RouteHandler {
        .inline(body)
    }

    func read(_ body: @escaping @Sendable (Request, StoreReader) throws -> Response) -> RouteHandler {
        let readers = readers
        switch backend {
        case .local:
            return .inline { request in try body(request, readers[request.eventLoopIndex]) }
        case .network(let pool, _, _):
            return pooled(pool) { request, _ in try body(request, readers[request.eventLoopIndex]) }
        }
    }

    func read(bearer body: @escaping @Sendable (Request, Authenticated, StoreReader) throws -> Response) -> RouteHandler {
        let (readers, caches, verifier) = (readers, tokenCaches, verifier)
        switch backend {
        case .local:
            return .inline { request in
                let reader = readers[request.eventLoopIndex]
                let caller = try verifier.verify(authorization: request.header("authorization"), reader: reader, cache: caches[request.eventLoopIndex])
                return try body(request, caller, reader)
            }
        case .network(let pool, _, let workerCaches):
            // The bearer check and the handler's reads on the same pool thread: one hop.
            return pooled(pool) { request, worker in
                let reader = readers[request.eventLoopIndex]
                let caller = try verifier.verify(authorization: request.header("authorization"), reader: reader, cache: workerCaches[worker])
                return try body(request, caller, reader)
            }
        }
    }

    /// A handler whose one read is the bearer check (it reads the session with its account).
    func read(caller body: @escaping @Sendable (Request, Authenticated) throws -> Response) -> RouteHandler {
        switch backend {
        case .local:
            return read(bearer: { request, caller, _ in try body(request, caller) })
        case .network:
            let errors = errors
            return .deferred { request, sink in
                checkBearer(request) { checked in
                    // Built back on the loop: the batch thread returns to its batch.
                    sink.respond { errors.answer(request) { try body(request, checked.get()) } }
                }
            }
        }
    }

    func write(_ body: @escaping @Sendable (Request) async throws -> Response) -> RouteHandler {
        let errors = errors
        return .deferred { request, sink in
            Task.detached { sink.respond(await errors.answer(request) { try await body(request) }) }
        }
    }

    func write(bearer body: @escaping @Sendable (Request, Authenticated) async throws -> Response) -> RouteHandler {
        let errors = errors
        return .deferred { request, sink in
            checkBearer(request) { checked in
                switch checked {
                case .success(let caller):
                    Task.detached { sink.respond(await errors.answer(request) { try await body(request, caller) }) }
                case .failure(let error):
                    sink.respond(errors.response(for: error, to: request))
                }
            }
        }
    }

    /// The bearer check started on the loop (with the loop's token cache): finished there
    /// on SQLite, in the next batch of session reads on PostgreSQL (`completion` then runs
    /// on the batch's thread).
    private func checkBearer(_ request: Request, completion: @escaping @Sendable (Result<Authenticated, any Error>) -> Void) {
        let authorization = request.header("authorization")
        let (reader, cache) = (readers[request.eventLoopIndex], tokenCaches[request.eventLoopIndex])
        switch backend {
        case .local:
            completion(Result { try verifier.verify(authorization: authorization, reader: reader, cache: cache) })
        case .network(_, let batches, _):
            verifier.verify(authorization: authorization, cache: cache, batches: batches, completion: completion)
        }
    }

    /// `body` on a thread of `pool` (given its index), answered through the sink; a full
    /// queue answers 503 at once.
    private func pooled(_ pool: BoundedThreadPool, _ body: @escaping @Sendable (Request, _ worker: Int) throws -> Response) -> RouteHandler {
        let errors = errors
        return .deferred { request, sink in
            let accepted = pool.submit { worker in sink.respond(errors.answer(request) { try body(request, worker) }) }
            if !accepted { sink.respond(APIProblem.serviceBusy.response()) }
        }
    }
}
