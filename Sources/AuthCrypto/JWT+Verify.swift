import FlatJSON

extension JWT {
    /// Checks a token and returns its claims, read by `FlatJSONObject` (several times
    /// cheaper than `JSONDecoder`). Runs inline on the event loop for every authenticated
    /// request, so it works on the token's own bytes, bounded by `maximumTokenLength`.
    ///
    /// Order matters: the header picks the key (HS256 or ES256 and a known `kid` of that
    /// algorithm, nothing else;
    /// our own headers are recognised byte for byte, others are decoded), the HMAC over
    /// the raw `header.payload` bytes is compared in constant time, and only then is the
    /// payload parsed, so an unauthenticated payload never reaches the claims reader.
    /// `exp` is required; `now` is a parameter so callers and tests control the clock.
    /// Issuer, audience and other claims are the caller's to check on the result.
    public static func verifyFlatClaims(
        _ token: String, with keyring: Keyring, now: Int64, leeway: Int64 = 30
    ) throws(JWTError) -> FlatJSONObject {
        guard token.utf8.count <= maximumTokenLength else { throw .malformed }
        var token = token
        return try token.withUTF8 { bytes in
            Result { () throws(JWTError) -> FlatJSONObject in
                let segments = try TokenSegments(bytes)
                let key = try keyring.key(forHeader: segments.header)
                try checkSignature(of: segments, with: key)
                let claims = try decodePayload(segments.payload) { json throws(JWTError) in
                    guard let object = FlatJSONObject(parsing: json) else { throw .malformed }
                    return object
                }
                guard let expiry = claims.integer("exp") else { throw .missingExpiry }
                try checkExpiry(expiry, now: now, leeway: leeway)
                return claims
            }
        }.get()
    }

    private static func checkSignature(of segments: TokenSegments, with key: Keyring.VerifyingKey) throws(JWTError) {
        switch key {
        case .hmac(let key): try checkHMAC(of: segments, with: key)
        case .p256(let key): try checkES256(of: segments, with: key)
        }
    }

    /// One ECDSA verification over the raw signing input; the signature must be JOSE's
    /// 64 bytes (r ‖ s), as RFC 7518 §3.4 has it, never DER.
    private static func checkES256(of segments: TokenSegments, with key: ES256SigningKey) throws(JWTError) {
        guard Base64Codec.decodedLength(ofEncodedCount: segments.signature.count) == 64,
              let jose = Base64URL.decode(segments.signature),
              let der = ECDSASignatureDER.fromJOSE(jose)
        else { throw .badSignature }
        do {
            try key.privateKey.publicKey.verify(.es256, signature: der, message: Array(segments.signingInput))
        } catch {
            throw .badSignature
        }
    }

    private static func checkHMAC(of segments: TokenSegments, with key: SigningKey) throws(JWTError) {
        guard Base64Codec.decodedLength(ofEncodedCount: segments.signature.count) == HMACSHA256.codeLength else {
            throw .badSignature
        }
        let valid = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 2 * HMACSHA256.codeLength) { scratch in
            let presented = UnsafeMutableBufferPointer(rebasing: scratch[..<HMACSHA256.codeLength])
            let expected = UnsafeMutableBufferPointer(rebasing: scratch[HMACSHA256.codeLength...])
            guard Base64Codec.url.decode(segments.signature, into: presented) else { return false }
            key.hmacKey.authenticate(segments.signingInput, into: expected)
            return ConstantTime.equals(UnsafeBufferPointer(presented), UnsafeBufferPointer(expected))
        }
        guard valid else { throw .badSignature }
    }

    private static func checkExpiry(_ expiry: Int64, now: Int64, leeway: Int64) throws(JWTError) {
        let (deadline, overflow) = expiry.addingReportingOverflow(leeway)
        let expired = overflow ? leeway < 0 : now > deadline
        guard !expired else { throw .expired }
    }

    /// Base64url-decodes the payload into a stack buffer and hands it to `parse`.
    private static func decodePayload<T>(
        _ payload: UnsafeBufferPointer<UInt8>, _ parse: (UnsafeBufferPointer<UInt8>) throws(JWTError) -> T
    ) throws(JWTError) -> T {
        guard let length = Base64Codec.decodedLength(ofEncodedCount: payload.count) else { throw .malformed }
        let result: Result<T, JWTError> = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(1, length)) { buffer in
            let json = UnsafeMutableBufferPointer(rebasing: buffer[..<length])
            guard Base64Codec.url.decode(payload, into: json) else { return .failure(.malformed) }
            return Result { () throws(JWTError) -> T in try parse(UnsafeBufferPointer(json)) }
        }
        return try result.get()
    }
}
