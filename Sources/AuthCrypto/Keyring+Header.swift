import FoundationEssentials

extension Keyring {
    /// A key that checks a token's signature: the header's `alg` decides which kind.
    enum VerifyingKey {
        case hmac(SigningKey)
        case p256(ES256SigningKey)
    }

    /// The key a token header names, or why there is none.
    ///
    /// Tokens we signed carry one of our precomputed headers byte for byte, so the common
    /// case is a short memcmp per key and no JSON at all. Any other header (another
    /// library's key order, extra fields) is decoded and held to the same rules. A `kid`
    /// is looked up only among the keys of the header's `alg`: an HS256 header naming a
    /// P-256 key (whose public half anyone can fetch, to use as an HMAC secret) finds none.
    func key(forHeader header: UnsafeBufferPointer<UInt8>) throws(JWTError) -> VerifyingKey {
        for key in keys where key.encodedHeader.elementsEqual(header) {
            return .hmac(key)
        }
        for key in es256Keys where key.encodedHeader.elementsEqual(header) {
            return .p256(key)
        }
        guard let json = Base64Codec.url.decode(header) else { throw .malformed }
        let fields: JOSEHeader
        do {
            fields = try JSONDecoder().decode(JOSEHeader.self, from: Data(json))
        } catch {
            throw .malformed
        }
        // We implement no JWS extensions, so any critical one must be refused (RFC 7515 §4.1.11).
        guard fields.crit == nil else { throw .unsupportedAlgorithm }
        // `none`, HS384/512, RS256 all stop here; each algorithm's keys are its own.
        switch fields.alg.map({ Array($0.utf8) }) {
        case Array("HS256".utf8)?:
            guard let id = fields.kid, let key = key(withID: id) else { throw .unknownKey }
            return .hmac(key)
        case Array("ES256".utf8)?:
            guard let id = fields.kid, let key = es256Key(withID: id) else { throw .unknownKey }
            return .p256(key)
        default:
            throw .unsupportedAlgorithm
        }
    }
}

/// The JOSE header fields that decide how a token is checked; everything else is ignored.
private struct JOSEHeader: Decodable {
    let alg: String?
    let kid: String?
    let crit: [String]?
}
