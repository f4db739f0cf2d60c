import AuthCrypto
import FoundationEssentials

/// A provider's key set as fetched: its usable keys and how long they may be kept.
struct ProviderKeySet: Sendable {
    let keys: [JSONWebKey]
    /// Seconds, from the key set's `Cache-Control` clamped to [5 minutes, 24 hours].
    let lifetime: Int64

    static let shortestLifetime: Int64 = 300
    static let longestLifetime: Int64 = 86_400

    /// The keys of a JWKS document (RFC 7517) that can verify an ID token: EC P-256 and
    /// RSA keys for signing. A key of another type, or one whose numbers are refused
    /// (`COSEKey`'s limits), is left out rather than failing the set. Nil when the document
    /// is not a key set at all.
    static func keys(fromJWKS body: [UInt8]) -> [JSONWebKey]? {
        struct Document: Decodable {
            struct Key: Decodable {
                let kty: String?, crv: String?, x: String?, y: String?, n: String?, e: String?, kid: String?, alg: String?, use: String?
            }
            let keys: [Key]
        }
        guard let document = try? JSONDecoder().decode(Document.self, from: Data(body)) else { return nil }
        return document.keys.compactMap { key -> JSONWebKey? in
            if let use = key.use, !use.utf8.elementsEqual("sig".utf8) { return nil }
            switch (key.kty, key.alg) {
            case ("EC", nil), ("EC", "ES256"):
                guard key.crv == "P-256", let x = key.x.flatMap(Base64URL.decode), let y = key.y.flatMap(Base64URL.decode) else { return nil }
                return try? JSONWebKey.p256(x: x, y: y, keyID: key.kid)
            case ("RSA", nil), ("RSA", "RS256"):
                guard let n = key.n.flatMap(Base64URL.decode), let e = key.e.flatMap(Base64URL.decode) else { return nil }
                return try? JSONWebKey.rsa(modulus: n, exponent: e, keyID: key.kid)
            default:
                return nil
            }
        }
    }

    /// `jwks_uri` of a discovery document whose `issuer` is exactly `issuer`; nil otherwise.
    static func jwksURI(fromDiscovery body: [UInt8], issuer: String) -> String? {
        struct Document: Decodable {
            let issuer: String?
            let jwks_uri: String?
        }
        guard let document = try? JSONDecoder().decode(Document.self, from: Data(body)),
              let named = document.issuer, named.utf8.elementsEqual(issuer.utf8) else { return nil }
        return document.jwks_uri
    }

    /// `max-age` of a `Cache-Control` value, clamped; the shortest lifetime when it has
    /// none (or says `no-cache` / `no-store`): keys are still kept that long, as the
    /// contract allows, so a provider cannot make every sign-in fetch them.
    static func lifetime(cacheControl: String?) -> Int64 {
        guard let cacheControl else { return shortestLifetime }
        var maxAge: Int64?
        for directive in cacheControl.split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { String($0).trimmingWhitespace() }
            guard parts.count == 2, parts[0].lowercased().utf8.elementsEqual("max-age".utf8) else { continue }
            let digits = parts[1].utf8
            guard !digits.isEmpty, digits.count <= 12, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { continue }
            maxAge = Int64(String(parts[1]))
            break
        }
        return min(max(maxAge ?? shortestLifetime, shortestLifetime), longestLifetime)
    }
}
