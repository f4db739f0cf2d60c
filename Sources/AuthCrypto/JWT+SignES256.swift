import FlatJSON

extension JWT {
    /// A compact JWS signed ES256 with `key`, its header `{"alg":"ES256","kid":…,"typ":"JWT"}`:
    /// access tokens a third party verifies with our published public key, and the client
    /// secret Apple asks for (signed with the team's `.p8` key, `kid` its key id).
    public static func signES256(_ claims: FlatJSONObject, key: P256PrivateKey, keyID: String) -> String {
        signES256(payload: claims.serialized(), key: key, keyID: keyID)
    }

    /// As above, for claims already written as compact JSON (`FlatJSONWriter`).
    public static func signES256(payload: [UInt8], key: P256PrivateKey, keyID: String) -> String {
        signES256(payload: payload, key: key, encodedHeader: es256Header(keyID: keyID))
    }

    /// The base64url header for `keyID`; the id is JSON-escaped, whatever it holds.
    static func es256Header(keyID: String) -> [UInt8] {
        var header = Array(#"{"alg":"ES256","kid":"#.utf8)
        FlatJSONObject.appendQuoted(keyID, to: &header)
        header += Array(#","typ":"JWT"}"#.utf8)
        return Array(Base64URL.encode(header).utf8)
    }

    /// `header.payload.signature` with a header already encoded (the keyring keeps one per key).
    static func signES256(payload: [UInt8], key: P256PrivateKey, encodedHeader header: [UInt8]) -> String {
        var signingInput = [UInt8]()
        signingInput.reserveCapacity(header.count + 1 + Base64Codec.encodedLength(ofByteCount: payload.count))
        signingInput += header
        signingInput.append(UInt8(ascii: "."))
        signingInput += Array(Base64URL.encode(payload).utf8)
        let signature = key.signES256(signingInput)
        return String(decoding: signingInput, as: UTF8.self) + "." + Base64URL.encode(signature)
    }
}
