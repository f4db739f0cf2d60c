import COpenSSL

/// AES-256-GCM (NIST SP 800-38D) through OpenSSL: a random 96-bit nonce per message, a
/// 128-bit tag, and associated data that is authenticated but not encrypted. A sealed box
/// is `nonce ‖ ciphertext ‖ tag`; one key seals at most a few billion messages (random
/// nonces), far beyond what one server queues.
public struct AES256GCMKey: Sendable {
    public static let keyLength = 32
    static let nonceLength = 12
    static let tagLength = 16

    private let secret: [UInt8]

    /// Nil unless `secret` is exactly 32 bytes.
    public init?(_ secret: [UInt8]) {
        guard secret.count == Self.keyLength else { return nil }
        self.secret = secret
    }

    public func seal(_ plaintext: [UInt8], authenticating associatedData: [UInt8]) -> [UInt8] {
        let nonce = SecureRandom.bytes(Self.nonceLength)
        guard let sealed = run(encrypting: true, nonce: nonce, input: plaintext, associatedData: associatedData, tag: nil) else {
            // Encryption cannot fail with a valid key and nonce; only a broken library lands here.
            fatalError("AES-256-GCM encryption failed")
        }
        return nonce + sealed.output + sealed.tag
    }

    /// The plaintext, or nil when the box is too short, was altered, was sealed under
    /// another key, or with other associated data.
    public func open(_ box: [UInt8], authenticating associatedData: [UInt8]) -> [UInt8]? {
        guard box.count >= Self.nonceLength + Self.tagLength else { return nil }
        let nonce = Array(box[0..<Self.nonceLength])
        let ciphertext = Array(box[Self.nonceLength..<(box.count - Self.tagLength)])
        let tag = Array(box[(box.count - Self.tagLength)...])
        return run(encrypting: false, nonce: nonce, input: ciphertext, associatedData: associatedData, tag: tag)?.output
    }

    /// One pass of GCM; when decrypting, nil unless `tag` verifies (OpenSSL compares it in
    /// constant time in the final step).
    private func run(
        encrypting: Bool, nonce: [UInt8], input: [UInt8], associatedData: [UInt8], tag expectedTag: [UInt8]?
    ) -> (output: [UInt8], tag: [UInt8])? {
        guard let context = EVP_CIPHER_CTX_new() else { fatalError("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        let initialise = encrypting ? EVP_EncryptInit_ex : EVP_DecryptInit_ex
        let update = encrypting ? EVP_EncryptUpdate : EVP_DecryptUpdate
        // OpenSSL wants a non-NULL pointer even for an empty input, and an empty array may have none.
        var spare: UInt8 = 0
        // Never empty (GCM writes no more than its input; the spare room keeps a pointer).
        var output = [UInt8](repeating: 0, count: input.count + Self.tagLength)
        var tag = expectedTag ?? [UInt8](repeating: 0, count: Self.tagLength)
        var written: Int32 = 0
        var ignored: Int32 = 0
        let succeeded = withUnsafePointer(to: &spare) { spare in
            output.withUnsafeMutableBufferPointer { output in
                tag.withUnsafeMutableBufferPointer { tag in
                    input.withUnsafeBufferPointer { input in
                        associatedData.withUnsafeBufferPointer { associatedData in
                            guard initialise(context, EVP_aes_256_gcm(), nil, secret, nonce) == 1,
                                  associatedData.isEmpty
                                  || update(context, nil, &ignored, associatedData.baseAddress, Int32(associatedData.count)) == 1,
                                  update(context, output.baseAddress, &written, input.baseAddress ?? spare, Int32(input.count)) == 1
                            else { return false }
                            if !encrypting {
                                guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(Self.tagLength), tag.baseAddress) == 1 else { return false }
                            }
                            let finish = encrypting ? EVP_EncryptFinal_ex : EVP_DecryptFinal_ex
                            guard finish(context, output.baseAddress! + Int(written), &ignored) == 1 else { return false }
                            return !encrypting || EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(Self.tagLength), tag.baseAddress) == 1
                        }
                    }
                }
            }
        }
        guard succeeded else { return nil }
        return (Array(output[0..<Int(written)]), tag)
    }
}
