import HTTPServer
import LatchkeyCore
import Synchronization

/// `/.well-known/jwks.json` as bytes, rendered when the keyring changes (a new generation)
/// or when a retired key's publication ends, and otherwise handed out as they are: a
/// resource server polling it costs a lock and a copy-on-write reference.
final class PublicKeySet: Sendable {
    private let keys: CurrentKeyring
    /// A retired key is listed until `retiredAt` plus this (the access token lifetime): no
    /// token it signed lives longer.
    private let tokenLifetime: Int64
    private let rendered: Mutex<(generation: Int, validUntil: Int64, response: Response)?>

    init(keys: CurrentKeyring, tokenLifetime: Int64) {
        self.keys = keys
        self.tokenLifetime = tokenLifetime
        rendered = Mutex(nil)
    }

    func response(now: Int64) -> Response {
        let generation = keys.generation
        if let cached = rendered.withLock({ $0 }), cached.generation == generation, now < cached.validUntil {
            return cached.response
        }
        let (renderedGeneration, body, validUntil) = keys.keySet(now: now, tokenLifetime: tokenLifetime)
        let response = Response(
            status: 200,
            headers: [HTTPField(name: "Content-Type", value: "application/json"), HTTPField(name: "Cache-Control", value: "public, max-age=300")],
            body: body
        )
        rendered.withLock { $0 = (renderedGeneration, validUntil, response) }
        return response
    }
}
