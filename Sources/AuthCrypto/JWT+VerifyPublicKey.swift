import COpenSSL
import FlatJSON

extension JWT {
    /// Checks a token signed by someone else's private key (an OpenID provider's ID token)
    /// against their published keys and returns its payload's JSON bytes, for the caller
    /// to read with a reader that keeps arrays (`aud` may be one). The header's `alg` must
    /// be ES256 or RS256 and match the key its `kid` names; anything else (`none`, `HS256`
    /// with the public key as a secret, an unknown `kid`, `crit`) is refused before any
    /// signature is checked. Claims, expiry included, are the caller's to check.
    public static func verifiedPayload(_ token: String, keys: [JSONWebKey]) throws(JWTError) -> [UInt8] {
        guard token.utf8.count <= maximumTokenLength else { throw .malformed }
        var token = token
        return try token.withUTF8 { bytes in
            Result { () throws(JWTError) -> [UInt8] in
                let segments = try TokenSegments(bytes)
                let header = try decoded(segments.header)
                guard let object = header.withUnsafeBufferPointer({ FlatJSONObject(parsing: $0) }) else { throw .malformed }
                guard object["crit"] == nil, case .string(let name)? = object["alg"] else { throw .unsupportedAlgorithm }
                let algorithm: COSEAlgorithm
                switch Array(name.utf8) {
                case Array("ES256".utf8): algorithm = .es256
                case Array("RS256".utf8): algorithm = .rs256
                default: throw .unsupportedAlgorithm
                }
                let keyID: [UInt8]? = if case .string(let kid)? = object["kid"] { Array(kid.utf8) } else { nil }
                // A `kid` picks exactly one key; without one, a provider with one key of the algorithm.
                let candidates = keys.filter { key in
                    key.algorithm == algorithm && (keyID == nil || key.keyID.map { Array($0.utf8) } == keyID)
                }
                guard candidates.count == 1, let key = candidates.first else { throw .unknownKey }
                var signature = try decoded(segments.signature)
                if algorithm == .es256 {
                    guard let der = ECDSASignatureDER.fromJOSE(signature) else { throw .badSignature }
                    signature = der
                }
                do {
                    try key.key.verify(algorithm, signature: signature, message: Array(segments.signingInput))
                } catch {
                    throw .badSignature
                }
                return try decoded(segments.payload)
            }
        }.get()
    }

    private static func decoded(_ segment: UnsafeBufferPointer<UInt8>) throws(JWTError) -> [UInt8] {
        guard let length = Base64Codec.decodedLength(ofEncodedCount: segment.count) else { throw .malformed }
        var bytes = [UInt8](repeating: 0, count: length)
        let decoded = bytes.withUnsafeMutableBufferPointer { Base64Codec.url.decode(segment, into: $0) }
        guard decoded else { throw .malformed }
        return bytes
    }
}

extension ECDSASignatureDER {
    /// JWS's ES256 signature (RFC 7518 §3.4: r ‖ s, 32 bytes each) as the DER that
    /// OpenSSL verifies; nil unless it is exactly 64 bytes.
    static func fromJOSE(_ signature: [UInt8]) -> [UInt8]? {
        guard signature.count == 64 else { return nil }
        func integer(_ bytes: ArraySlice<UInt8>) -> [UInt8] {
            var digits = Array(bytes.drop { $0 == 0 })
            if digits.isEmpty { digits = [0] }
            if digits[0] & 0x80 != 0 { digits.insert(0, at: 0) }
            return [0x02, UInt8(digits.count)] + digits
        }
        let body = integer(signature[..<32]) + integer(signature[32...])
        return [0x30, UInt8(body.count)] + body
    }
}
