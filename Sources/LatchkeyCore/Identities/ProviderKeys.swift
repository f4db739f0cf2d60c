import AuthCrypto
import Synchronization
import Threads

/// The providers' signing keys, fetched over HTTPS and kept for their `Cache-Control`
/// lifetime (`ProviderKeySet`). Fetching blocks a thread, so it runs on a small pool of
/// its own, never on an event loop or a task's thread; concurrent callers that need the
/// same provider's keys wait for one fetch. A token naming a `kid` the cached set lacks
/// (the provider rotated) fetches again at once, but at most once per
/// `unknownKeyRefetchInterval` per provider: a flood of made-up `kid`s cannot make this
/// server hammer the provider.
actor ProviderKeys {
    private struct Cached {
        var keys: [JSONWebKey]
        var freshUntil: Int64
    }

    static let unknownKeyRefetchInterval: Int64 = 60

    private let fetcher: any ProviderDocumentFetcher
    private let pool: BoundedThreadPool
    private let clock: @Sendable () -> Int64
    /// Behind a lock, not the actor: a sign-in with the keys cached (all but a few a day)
    /// reads them without a hop onto this actor and back, which every sign-in took in turn.
    private let cached = Mutex<[String: Cached]>([:])
    private var running: [String: Task<Result<ProviderKeySet, IdentityError>, Never>] = [:]
    private var lastUnknownKeyFetch: [String: Int64] = [:]

    init(fetcher: any ProviderDocumentFetcher, clock: @escaping @Sendable () -> Int64 = { UnixTime.now() }) {
        self.fetcher = fetcher
        self.clock = clock
        pool = BoundedThreadPool(named: "idp-keys", threads: 2, capacity: 32)
    }

    /// The provider's keys: cached while fresh, else fetched. When a fetch fails, keys
    /// kept from before still serve (the provider may be down for a moment); with none,
    /// `IdentityError.providerUnavailable`. Fresh keys are read behind the lock, without a
    /// hop onto this actor.
    nonisolated func keys(of provider: IdentityProvider) async throws(IdentityError) -> [JSONWebKey] {
        if let fresh = freshKeys(of: provider) { return fresh }
        return try await fetchedKeys(of: provider)
    }

    private func fetchedKeys(of provider: IdentityProvider) async throws(IdentityError) -> [JSONWebKey] {
        if let fresh = freshKeys(of: provider) { return fresh }  // a fetch finished while this call waited for the actor
        switch await fetch(provider) {
        case .success(let set): return set.keys
        case .failure(let error):
            guard let stale = cached.withLock({ $0[provider.name] }) else { throw error }
            return stale.keys
        }
    }

    /// The provider's keys while their cached copy is fresh, else nil.
    private nonisolated func freshKeys(of provider: IdentityProvider) -> [JSONWebKey]? {
        let now = clock()
        return cached.withLock { cached in
            guard let entry = cached[provider.name], now < entry.freshUntil else { return nil }
            return entry.keys
        }
    }

    /// After a token named a `kid` that `keys(of:)` lacked: the keys fetched again, or nil
    /// when the last such fetch was too recent or this one failed (the token is then
    /// refused for its signature).
    func keysAfterUnknownKey(of provider: IdentityProvider) async -> [JSONWebKey]? {
        let now = clock()
        if running[provider.name] == nil {
            if let last = lastUnknownKeyFetch[provider.name], now - last < Self.unknownKeyRefetchInterval { return nil }
            lastUnknownKeyFetch[provider.name] = now
        }
        guard case .success(let set) = await fetch(provider) else { return nil }
        return set.keys
    }

    /// One fetch per provider at a time: a caller arriving while one runs waits for it.
    private func fetch(_ provider: IdentityProvider) async -> Result<ProviderKeySet, IdentityError> {
        if let task = running[provider.name] { return await task.value }
        let (fetcher, pool) = (fetcher, pool)
        let task = Task { await Self.fetchOffTheLoops(provider, fetcher: fetcher, pool: pool) }
        running[provider.name] = task
        let result = await task.value
        running[provider.name] = nil
        if case .success(let set) = result {
            let entry = Cached(keys: set.keys, freshUntil: clock() + set.lifetime)
            cached.withLock { $0[provider.name] = entry }
        }
        return result
    }

    private static func fetchOffTheLoops(
        _ provider: IdentityProvider, fetcher: any ProviderDocumentFetcher, pool: BoundedThreadPool
    ) async -> Result<ProviderKeySet, IdentityError> {
        await withCheckedContinuation { continuation in
            let accepted = pool.submit { _ in continuation.resume(returning: fetchNow(provider, fetcher: fetcher)) }
            if !accepted { continuation.resume(returning: .failure(.providerUnavailable(why: "the key fetching queue is full"))) }
        }
    }

    /// The blocking fetch: discovery first where the provider has it, then the key set.
    static func fetchNow(_ provider: IdentityProvider, fetcher: any ProviderDocumentFetcher) -> Result<ProviderKeySet, IdentityError> {
        func unavailable(_ why: String) -> Result<ProviderKeySet, IdentityError> {
            .failure(.providerUnavailable(why: "\(provider.name): \(why)"))
        }
        let jwksURL: String
        switch provider.keySource {
        case .jwks(let url): jwksURL = url
        case .discovery:
            let discoveryURL = provider.issuer + "/.well-known/openid-configuration"
            let discovery: FetchedDocument
            do { discovery = try fetcher.get(discoveryURL) } catch { return unavailable("\(discoveryURL): \(error)") }
            guard discovery.status == 200 else { return unavailable("\(discoveryURL) answered \(discovery.status)") }
            guard let named = ProviderKeySet.jwksURI(fromDiscovery: discovery.body, issuer: provider.issuer) else {
                return unavailable("\(discoveryURL) is not a discovery document of the issuer \(provider.issuer)")
            }
            jwksURL = named
        }
        let document: FetchedDocument
        do { document = try fetcher.get(jwksURL) } catch { return unavailable("\(jwksURL): \(error)") }
        guard document.status == 200 else { return unavailable("\(jwksURL) answered \(document.status)") }
        guard let keys = ProviderKeySet.keys(fromJWKS: document.body) else { return unavailable("\(jwksURL) is not a JSON Web Key Set") }
        return .success(ProviderKeySet(keys: keys, lifetime: ProviderKeySet.lifetime(cacheControl: document.cacheControl)))
    }
}
