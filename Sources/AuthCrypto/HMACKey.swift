import COpenSSL

/// An HMAC-SHA256 key with its padded blocks computed once (RFC 2104 §2), so a MAC costs
/// two plain SHA-256 runs and no per-call key schedule or algorithm lookup. A signing key
/// keeps one of these, which makes a MAC several times cheaper than
/// OpenSSL's one-shot `HMAC()`.
public struct HMACKey: Sendable {
    private static let blockLength = 64

    /// `K ^ ipad` and `K ^ opad`: as secret as the key itself.
    private let innerPad: [UInt8]
    private let outerPad: [UInt8]

    init(_ secret: UnsafeBufferPointer<UInt8>) {
        var block = [UInt8](repeating: 0, count: Self.blockLength)
        // Keys longer than the block are hashed first, as RFC 2104 requires.
        let material = secret.count > Self.blockLength ? SHA256.digest(of: secret) : Array(secret)
        block.replaceSubrange(0..<material.count, with: material)
        innerPad = block.map { $0 ^ 0x36 }
        outerPad = block.map { $0 ^ 0x5C }
    }

    public init(_ secret: [UInt8]) {
        self = secret.withUnsafeBufferPointer { HMACKey($0) }
    }

    public func authenticationCode(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBufferPointer { message in
            [UInt8](unsafeUninitializedCapacity: HMACSHA256.codeLength) { output, initialized in
                authenticate(message, into: output)
                initialized = HMACSHA256.codeLength
            }
        }
    }

    /// Writes `H(K ^ opad || H(K ^ ipad || message))` into `output` (at least 32 bytes).
    func authenticate(_ message: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(output.count >= HMACSHA256.codeLength, "HMACKey: output buffer too small")
        // Allocation failure inside OpenSSL is the only way these calls fail; trapping beats
        // issuing or accepting a token under a garbage signature.
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed") }
        defer { EVP_MD_CTX_free(context) }
        let digest = SHA256Algorithm.shared.digest

        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: HMACSHA256.codeLength) { inner in
            var length: UInt32 = 0
            let succeeded = EVP_DigestInit_ex(context, digest, nil) == 1
                && innerPad.withUnsafeBufferPointer { EVP_DigestUpdate(context, $0.baseAddress, $0.count) } == 1
                && EVP_DigestUpdate(context, message.baseAddress, message.count) == 1
                && EVP_DigestFinal_ex(context, inner.baseAddress, &length) == 1
                && EVP_DigestInit_ex(context, digest, nil) == 1
                && outerPad.withUnsafeBufferPointer { EVP_DigestUpdate(context, $0.baseAddress, $0.count) } == 1
                && EVP_DigestUpdate(context, inner.baseAddress, inner.count) == 1
                && EVP_DigestFinal_ex(context, output.baseAddress, &length) == 1
            guard succeeded, length == UInt32(HMACSHA256.codeLength) else {
                fatalError("HMAC-SHA256 digest computation failed")
            }
        }
    }
}
