import COpenSSL

extension EVPPublicKey {
    /// Checks `signature` over `message` as `algorithm` signs: ES256 a strict-DER ECDSA
    /// signature over SHA-256, RS256 PKCS#1 v1.5 over SHA-256, EdDSA pure Ed25519.
    /// The caller has matched `algorithm` to the key's type.
    func verify(_ algorithm: COSEAlgorithm, signature: [UInt8], message: [UInt8]) throws(SignatureError) {
        switch algorithm {
        case .es256:
            guard ECDSASignatureDER.isStrict(signature) else { throw .malformedSignature }
        case .eddsa:
            guard signature.count == 64 else { throw .malformedSignature }
        case .rs256:
            guard signature.count == (bits + 7) / 8 else { throw .malformedSignature }
        }
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed (out of memory)") }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        // Ed25519 hashes inside the signature scheme: no digest is named.
        let digest: String? = algorithm == .eddsa ? nil : "SHA256"
        guard EVP_DigestVerifyInit_ex(context, &keyContext, digest, nil, nil, pointer, nil) == 1 else {
            ERR_clear_error()
            throw .mismatch
        }
        if algorithm == .rs256 {
            // PKCS#1 v1.5 is OpenSSL's default for RSA; said here so no default can change it.
            guard EVP_PKEY_CTX_set_rsa_padding(keyContext, RSA_PKCS1_PADDING) == 1 else {
                ERR_clear_error()
                throw .mismatch
            }
        }
        // OpenSSL wants a non-NULL pointer even for an empty input, and an empty array may have none.
        var spare: UInt8 = 0
        let verified = withUnsafePointer(to: &spare) { spare in
            signature.withUnsafeBufferPointer { signature in
                message.withUnsafeBufferPointer { message in
                    EVP_DigestVerify(context, signature.baseAddress ?? spare, signature.count, message.baseAddress ?? spare, message.count)
                }
            }
        }
        guard verified == 1 else {
            ERR_clear_error()
            throw .mismatch
        }
    }
}

/// ECDSA signatures as WebAuthn sends them: `SEQUENCE { r INTEGER, s INTEGER }` in DER.
enum ECDSASignatureDER {
    /// A P-256 signature in DER is at most 2 + 2 × (2 + 33) bytes.
    static let maxLength = 72

    /// Whether `signature` is one DER-encoded ECDSA-Sig-Value and nothing more, in its one
    /// canonical encoding (re-encoding gives the same bytes), so a signature cannot be
    /// reshaped into a second accepted form of itself.
    static func isStrict(_ signature: [UInt8]) -> Bool {
        guard !signature.isEmpty, signature.count <= maxLength else { return false }
        return signature.withUnsafeBufferPointer { input -> Bool in
            var cursor: UnsafePointer<UInt8>? = input.baseAddress
            guard let parsed = d2i_ECDSA_SIG(nil, &cursor, input.count) else {
                ERR_clear_error()
                return false
            }
            defer { ECDSA_SIG_free(parsed) }
            guard cursor == input.baseAddress! + input.count,
                  i2d_ECDSA_SIG(parsed, nil) == Int32(input.count)
            else { return false }
            var encoded = [UInt8](repeating: 0, count: input.count)
            let written = encoded.withUnsafeMutableBufferPointer { output -> Int32 in
                var end: UnsafeMutablePointer<UInt8>? = output.baseAddress
                return i2d_ECDSA_SIG(parsed, &end)
            }
            return written == Int32(input.count) && encoded.elementsEqual(input)
        }
    }
}
