import COpenSSL

/// A Firebase project's password hash parameters (Firebase console → Authentication →
/// Users → ⋮ → Password hash parameters). The signer key is a secret of that project.
public struct FirebaseScryptParameters: Sendable, Equatable {
    /// Firebase's own bounds (its Admin SDK refuses others): scrypt's r, and log2 of N.
    public static let roundsRange = 1...8
    public static let memoryCostRange = 1...14
    /// A signer key is 64 bytes in every project seen; anything far longer is not one,
    /// and each hash costs a copy of it.
    public static let signerKeyLengths = 1...1024

    public let signerKey: [UInt8]
    public let saltSeparator: [UInt8]
    public let rounds: Int
    public let memoryCost: Int

    /// Nil when a value is outside Firebase's bounds: a stored set that does not pass
    /// cannot make a login allocate gigabytes.
    public init?(signerKey: [UInt8], saltSeparator: [UInt8], rounds: Int, memoryCost: Int) {
        guard Self.signerKeyLengths.contains(signerKey.count), saltSeparator.count <= 1024,
              Self.roundsRange.contains(rounds), Self.memoryCostRange.contains(memoryCost) else { return nil }
        self.signerKey = signerKey
        self.saltSeparator = saltSeparator
        self.rounds = rounds
        self.memoryCost = memoryCost
    }
}

/// Firebase Authentication's modified scrypt (github.com/firebase/scrypt,
/// `scryptenc_buf_saltlen`): a 64-byte scrypt key of the password, salted with the
/// user's salt followed by the project's salt separator (N = 2^memoryCost, r = rounds,
/// p = 1); its first 32 bytes are an AES-256-CTR key (counter block starting at zero)
/// that encrypts the project's signer key. The ciphertext is the stored hash.
///
/// Latchkey only verifies these (at an imported user's first login, which then stores
/// PBKDF2 instead). At memory cost 14 and 8 rounds one call takes 16 MiB and tens of
/// milliseconds: run it on the password pool, never on an event loop.
public enum FirebaseScrypt {
    static let derivedKeyLength = 64

    public static func hash(password: [UInt8], salt: [UInt8], parameters: FirebaseScryptParameters) -> [UInt8] {
        let derived = scrypt(password: password, salt: salt + parameters.saltSeparator, parameters: parameters)
        return aes256CTR(key: Array(derived[0..<32]), encrypting: parameters.signerKey)
    }

    /// Compares in constant time; false for a hash of another length than the signer key.
    public static func verify(password: [UInt8], salt: [UInt8], hash: [UInt8], parameters: FirebaseScryptParameters) -> Bool {
        ConstantTime.equals(Self.hash(password: password, salt: salt, parameters: parameters), hash)
    }

    private static func scrypt(password: [UInt8], salt: [UInt8], parameters: FirebaseScryptParameters) -> [UInt8] {
        let n = UInt64(1) << UInt64(parameters.memoryCost)
        let r = UInt64(parameters.rounds)
        // What OpenSSL needs, 128·r·(N + 2) bytes plus the 128·r·p block, with room to
        // spare; at the largest parameters Firebase allows (r = 8, N = 2^14) about 16 MiB.
        let memoryLimit = 128 * r * (n + 3) + 4096
        // OpenSSL rejects a NULL pointer for an empty input, and an empty array may have none.
        var empty: UInt8 = 0
        return withUnsafePointer(to: &empty) { empty in
            password.withUnsafeBufferPointer { password in
                salt.withUnsafeBufferPointer { salt in
                    [UInt8](unsafeUninitializedCapacity: derivedKeyLength) { output, initialized in
                        let passwordPointer = UnsafeRawPointer(password.baseAddress ?? empty).assumingMemoryBound(to: CChar.self)
                        // The parameters were range-checked when they were made, so only a
                        // failed allocation lands here; a wrong key would refuse every
                        // imported user (or let one in), so we stop instead.
                        guard EVP_PBE_scrypt(passwordPointer, password.count, salt.baseAddress ?? empty, salt.count,
                                             n, r, 1, memoryLimit, output.baseAddress, derivedKeyLength) == 1 else {
                            fatalError("EVP_PBE_scrypt failed")
                        }
                        initialized = derivedKeyLength
                    }
                }
            }
        }
    }

    /// AES-256 in counter mode from a zero counter block, as `crypto_aesctr_init(key, 0)`
    /// (a 64-bit zero nonce, then the 64-bit block count, both big-endian) does.
    private static func aes256CTR(key: [UInt8], encrypting plaintext: [UInt8]) -> [UInt8] {
        guard let context = EVP_CIPHER_CTX_new() else { fatalError("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        let counter = [UInt8](repeating: 0, count: 16)
        var output = [UInt8](repeating: 0, count: plaintext.count + 16)
        var written: Int32 = 0
        var finished: Int32 = 0
        let succeeded = output.withUnsafeMutableBufferPointer { output in
            EVP_EncryptInit_ex(context, EVP_aes_256_ctr(), nil, key, counter) == 1
                && EVP_EncryptUpdate(context, output.baseAddress, &written, plaintext, Int32(plaintext.count)) == 1
                && EVP_EncryptFinal_ex(context, output.baseAddress! + Int(written), &finished) == 1
        }
        guard succeeded else { fatalError("AES-256-CTR failed") }
        return Array(output[0..<Int(written + finished)])
    }
}
