import FlatJSON

/// JSON Web Tokens (RFC 7519) signed with HMAC-SHA256 or ECDSA P-256 and a key id. Each
/// `kid` belongs to one algorithm's keys, so a header cannot pair an algorithm with a key
/// of the other kind (see `Keyring.key(forHeader:)`).
public enum JWT {
    /// Tokens longer than this are refused before any work is done. Ours are a few hundred
    /// bytes; the cap bounds what an attacker can make us decode.
    public static let maximumTokenLength = 8 * 1024

    /// Signs with the keyring's signing key (the first of its algorithm). The claims should include `exp`:
    /// `verifyFlatClaims` refuses tokens without one. Written by hand, without
    /// `JSONEncoder`: this runs for every login and refresh.
    public static func sign(_ claims: FlatJSONObject, with keyring: Keyring) -> String {
        sign(payload: claims.serialized(), with: keyring)
    }

    /// Signs claims already written as compact JSON (`FlatJSONWriter`), as the access
    /// tokens of every login and refresh are.
    ///
    /// `header.payload.signature` written once into the string it returns: the MAC is
    /// taken over the first two segments where they were just written, so a signature
    /// costs no intermediate array, string or copy.
    public static func sign(payload: [UInt8], with keyring: Keyring) -> String {
        if keyring.algorithm == .es256 {
            let key = keyring.es256Keys[0]
            return signES256(payload: payload, key: key.privateKey, encodedHeader: key.encodedHeader)
        }
        let key = keyring.signingKey
        let header = key.encodedHeader
        let length = header.count + 1 + Base64Codec.encodedLength(ofByteCount: payload.count)
            + 1 + Base64Codec.encodedLength(ofByteCount: HMACSHA256.codeLength)
        return String(unsafeUninitializedCapacity: length) { output in
            var written = UnsafeMutableBufferPointer(rebasing: output[...]).initialize(fromContentsOf: header)
            output[written] = UInt8(ascii: ".")
            written += 1
            written += payload.withUnsafeBufferPointer { Base64Codec.url.encode($0, into: UnsafeMutableBufferPointer(rebasing: output[written...])) }
            let signingInput = UnsafeBufferPointer(rebasing: output[..<written])
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: HMACSHA256.codeLength) { signature in
                key.hmacKey.authenticate(signingInput, into: signature)
                output[written] = UInt8(ascii: ".")
                written += 1
                written += Base64Codec.url.encode(UnsafeBufferPointer(signature), into: UnsafeMutableBufferPointer(rebasing: output[written...]))
            }
            return written
        }
    }
}
