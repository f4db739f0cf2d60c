import AuthCrypto
import FlatJSON

extension CurrentKeyring {
    /// `/.well-known/jwks.json`'s body, `{"keys":[…]}`: the keyring's P-256 keys, signing key
    /// first, then the retired keys whose tokens may still be alive (a retired key is listed
    /// until `retiredAt` plus `tokenLifetime`: no token it signed lives longer); with the
    /// generation it was made from and when the earliest retired key drops out of it.
    public func keySet(now: Int64, tokenLifetime: Int64) -> (generation: Int, body: [UInt8], validUntil: Int64) {
        let (keyring, retired, generation) = publication
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
        return (generation, body + Array("]}".utf8), validUntil)
    }
}
