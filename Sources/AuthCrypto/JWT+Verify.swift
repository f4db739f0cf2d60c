import FoundationEssentials
import FlatJSON

extension JWT {
    /// Checks a token and returns its claims. Runs inline on the event loop for every
    /// authenticated request, so it works on the token's own bytes, bounded by
    /// `maximumTokenLength`, without copying them.
    ///
    /// Order matters: the header picks the key (HS256 and a known `kid`, nothing else;
    /// our own headers are recognised byte for byte, others are decoded), the HMAC over
    /// the raw `header.payload` bytes is compared in constant time, and only then is the
    /// payload parsed, so an unauthenticated payload never reaches the claims decoder.
    /// `exp` is required; `now` is a parameter so callers and tests control the clock.
    /// Issuer, audience and other claims are the caller's to check on the result.
    public static func verify<Claims: Decodable>(
        _ token: String, with keyring: Keyring, now: Int64, leeway: Int64 = 30
    ) throws(JWTError) -> Claims {
        guard token.utf8.count <= maximumTokenLength else { throw .malformed }
        let result: Result<Claims, JWTError>? = token.utf8.withContiguousStorageIfAvailable {
            verify($0, with: keyring, now: now, leeway: leeway)
        }
        // Native strings are contiguous; only a bridged string takes the copying path.
        return try (result ?? Array(token.utf8).withUnsafeBufferPointer {
            verify($0, with: keyring, now: now, leeway: leeway)
        }).get()
    }

    /// Like `verify(_:with:now:leeway:)` for flat claim sets, read by `FlatJSONObject`
    /// instead of `JSONDecoder`: the hot-path form, several times cheaper.
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

    private static func verify<Claims: Decodable>(
        _ token: UnsafeBufferPointer<UInt8>, with keyring: Keyring, now: Int64, leeway: Int64
    ) -> Result<Claims, JWTError> {
        Result { () throws(JWTError) -> Claims in
            let segments = try TokenSegments(token)
            let key = try keyring.key(forHeader: segments.header)
            try checkSignature(of: segments, with: key)
            return try decodeClaims(segments.payload, now: now, leeway: leeway)
        }
    }

    private static func checkSignature(of segments: TokenSegments, with key: SigningKey) throws(JWTError) {
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

    private static func decodeClaims<Claims: Decodable>(
        _ payload: UnsafeBufferPointer<UInt8>, now: Int64, leeway: Int64
    ) throws(JWTError) -> Claims {
        guard let length = Base64Codec.decodedLength(ofEncodedCount: payload.count) else { throw .malformed }
        var json = Data(count: length)
        let decoded = json.withUnsafeMutableBytes { raw in
            Base64Codec.url.decode(payload, into: raw.bindMemory(to: UInt8.self))
        }
        guard decoded else { throw .malformed }

        let envelope: ClaimsEnvelope<Claims>
        do {
            envelope = try JSONDecoder().decode(ClaimsEnvelope<Claims>.self, from: json)
        } catch {
            throw .malformed
        }
        guard let expiry = envelope.expiry else { throw .missingExpiry }
        try checkExpiry(expiry, now: now, leeway: leeway)
        guard let claims = envelope.claims else { throw .malformed }
        return claims
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

/// Reads `exp` and the caller's claims in one JSON parse, and tells "no integer exp"
/// apart from "claims do not fit the caller's type".
private struct ClaimsEnvelope<Claims: Decodable>: Decodable {
    let expiry: Int64?
    let claims: Claims?

    private enum ExpiryKey: String, CodingKey { case exp }

    init(from decoder: any Decoder) throws {
        // Throws unless the payload is a JSON object.
        let container = try decoder.container(keyedBy: ExpiryKey.self)
        expiry = try? container.decodeIfPresent(Int64.self, forKey: .exp)
        claims = try? Claims(from: decoder)
    }
}
