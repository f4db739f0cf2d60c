import HTTPServer
import LatchkeyCore

/// What every handler of the API may use: the domain services, the per-loop readers and
/// token caches, and the throttles. Built once at start-up, shared read-only.
struct APIContext: Sendable {
    let core: CoreServices
    let readers: PerLoop<StoreReader>
    let tokenCaches: PerLoop<VerifiedTokenCache>
    let throttle: RequestThrottle
    /// For handlers that answer through a sink, outside the engine's own error mapping.
    let errors: ErrorResponder
    /// The words of the pages behind mailed links.
    let pages: PageText
    let maxPictureBytes: Int

    var accounts: AccountService { core.accounts }
    var sessions: SessionService { core.sessions }
    var policy: AccountsPolicy { core.policy }

    /// This context with `cache` as every loop's token cache, for a thread that serves
    /// requests of every loop (see `StoreReadRoutes`).
    func servingEveryLoop(with cache: VerifiedTokenCache) -> APIContext {
        APIContext(
            core: core, readers: readers, tokenCaches: PerLoop(count: tokenCaches.count) { _ in cache }, throttle: throttle, errors: errors,
            pages: pages, maxPictureBytes: maxPictureBytes
        )
    }

    /// The loop's own reader: only for inline handlers (or, on PostgreSQL, where a reader
    /// is thread-safe, handlers on the store-read threads).
    func reader(_ request: Request) -> StoreReader {
        readers[request.eventLoopIndex]
    }

    /// Bearer check for inline handlers (on the loop's reader).
    func authenticateInline(_ request: Request) throws -> Authenticated {
        try core.verifier.verify(
            authorization: request.header("authorization"), reader: reader(request),
            cache: tokenCaches[request.eventLoopIndex]
        )
    }

    /// Bearer check for off-loop handlers: on a pooled reader (SQLite), or in the next
    /// batch of session reads (PostgreSQL), so no thread of Swift's pool waits on the network.
    func authenticate(_ request: Request) async throws -> Authenticated {
        let authorization = request.header("authorization")
        guard let batches = core.sessionReadBatches else { return try core.authenticate(authorization: authorization) }
        return try await withCheckedThrowingContinuation { continuation in
            core.verifier.verify(authorization: authorization, cache: nil, batches: batches) { continuation.resume(with: $0) }
        }
    }

    /// At most 512 bytes of it, cut on a character boundary: what a session row keeps is
    /// bounded in bytes, whatever the characters (a `prefix` of `Character`s is not).
    func userAgent(_ request: Request) -> String? {
        request.header("user-agent").map { agent in
            var cut = agent.utf8.prefix(512).count
            let utf8 = Array(agent.utf8)
            // Back off continuation bytes (10xxxxxx) so the cut never splits a scalar.
            while cut < utf8.count, cut > 0, utf8[cut] & 0xC0 == 0x80 { cut -= 1 }
            return String(decoding: utf8[..<cut], as: UTF8.self)
        }
    }
}
