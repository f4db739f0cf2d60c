import FoundationEssentials

extension Keyring {
    /// The key a token header names, or why there is none.
    ///
    /// Tokens we signed carry one of our precomputed headers byte for byte, so the common
    /// case is a short memcmp per key and no JSON at all. Any other header (another
    /// library's key order, extra fields) is decoded and held to the same rules.
    func key(forHeader header: UnsafeBufferPointer<UInt8>) throws(JWTError) -> SigningKey {
        for key in keys where key.encodedHeader.elementsEqual(header) {
            return key
        }
        guard let json = Base64Codec.url.decode(header) else { throw .malformed }
        let fields: JOSEHeader
        do {
            fields = try JSONDecoder().decode(JOSEHeader.self, from: Data(json))
        } catch {
            throw .malformed
        }
        // `none`, HS384/512, RS256 (the HMAC-with-public-key confusion) all stop here.
        guard fields.alg == "HS256" else { throw .unsupportedAlgorithm }
        // We implement no JWS extensions, so any critical one must be refused (RFC 7515 §4.1.11).
        guard fields.crit == nil else { throw .unsupportedAlgorithm }
        guard let id = fields.kid, let key = key(withID: id) else { throw .unknownKey }
        return key
    }
}

/// The JOSE header fields that decide how a token is checked; everything else is ignored.
private struct JOSEHeader: Decodable {
    let alg: String?
    let kid: String?
    let crit: [String]?
}
