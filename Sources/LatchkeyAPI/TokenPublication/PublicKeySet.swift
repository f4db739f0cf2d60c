import AuthCrypto
import FlatJSON
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
        let publication = keys.publication
        let (body, validUntil) = Self.render(publication.keyring, publication.retired, now: now, tokenLifetime: tokenLifetime)
        let response = Response(
            status: 200,
            headers: [HTTPField(name: "Content-Type", value: "application/json"), HTTPField(name: "Cache-Control", value: "public, max-age=300")],
            body: body
        )
        rendered.withLock { $0 = (publication.generation, validUntil, response) }
        return response
    }

    /// `{"keys":[…]}`: the keyring's P-256 keys, signing key first, then the retired keys
    /// whose tokens may still be alive; and when the earliest of those drops out.
    static func render(_ keyring: Keyring, _ retired: [RetiredPublicKey], now: Int64, tokenLifetime: Int64) -> (body: [UInt8], validUntil: Int64) {
        var body = Array(#"{"keys":["#.utf8)
        var first = true
        func append(id: String, x: [UInt8], y: [UInt8]) {
            if !first { body.append(UInt8(ascii: ",")) }
            first = false
            body += Array(#"{"kty":"EC","crv":"P-256","x":""#.utf8) + Array(Base64URL.encode(x).utf8)
            body += Array(#"","y":""#.utf8) + Array(Base64URL.encode(y).utf8) + Array(#"","kid":"#.utf8)
            FlatJSONObject.appendQuoted(id, to: &body)
            body += Array(#","alg":"ES256","use":"sig"}"#.utf8)
        }
        for key in keyring.publicKeys {
            append(id: key.id, x: key.privateKey.publicX, y: key.privateKey.publicY)
        }
        var validUntil = Int64.max
        for key in retired {
            let end = key.retiredAt + tokenLifetime
            guard now <= end else { continue }
            append(id: key.id, x: key.x, y: key.y)
            validUntil = min(validUntil, end + 1)
        }
        return (body + Array("]}".utf8), validUntil)
    }
}
