import HTTPServer
import LatchkeyCore
import Threads

/// How the routes whose handlers read the store run.
///
/// On SQLite, inline on the event loop, on the loop's own read connection: a local
/// primary-key read costs less than a hop to another thread, and the hot paths depend on
/// it. On PostgreSQL a read is a network round trip, which an event loop must never wait
/// for: the same handler bodies are deferred to a pool of threads of their own
/// (`BoundedThreadPool`, not Swift concurrency, whose threads must not block either), and a
/// full queue answers 503 with `Retry-After`, as the hashing pool does.
struct StoreReadRoutes: Sendable {
    private let context: APIContext
    private let pool: BoundedThreadPool?
    /// What each pool thread's handlers see: the loops' context with that thread's own
    /// verified-token cache in every loop's place. A cache is not thread-safe and belongs
    /// to one thread; a pool thread serves requests of every loop.
    private let workerContexts: [APIContext]

    /// `pool`: nil runs the handlers inline (SQLite).
    init(_ context: APIContext, pool: BoundedThreadPool?) {
        self.context = context
        self.pool = pool
        workerContexts = (0..<(pool?.threads ?? 0)).map { _ in context.servingEveryLoop(with: VerifiedTokenCache()) }
    }

    /// A route whose one read is the bearer check (`GET /v1/users/me`). On PostgreSQL the
    /// token's own checks run on the loop, the session read joins the next batch (see
    /// `SessionReadBatches`), and `body` runs back on the loop.
    func bearerChecked(_ body: @escaping @Sendable (Request, Authenticated) throws -> Response) -> RouteHandler {
        let context = context
        guard let batches = context.core.sessionReadBatches else {
            return .inline { request in try body(request, context.authenticateInline(request)) }
        }
        return .deferred { request, sink in
            let cache = context.tokenCaches[request.eventLoopIndex]
            context.core.verifier.verify(authorization: request.header("authorization"), cache: cache, batches: batches) { caller in
                sink.respond {
                    do {
                        return try body(request, caller.get())
                    } catch {
                        return context.errors.response(for: error, to: request)
                    }
                }
            }
        }
    }

    func handler(_ body: @escaping @Sendable (Request, APIContext) throws -> Response) -> RouteHandler {
        let context = context
        guard let pool else { return .inline { request in try body(request, context) } }
        let contexts = workerContexts
        return .deferred { request, sink in
            let accepted = pool.submit { worker in
                let response: Response
                do {
                    response = try body(request, contexts[worker])
                } catch {
                    response = context.errors.response(for: error, to: request)
                }
                sink.respond(response)
            }
            if !accepted { sink.respond(APIProblem.serviceBusy.response()) }
        }
    }
}
