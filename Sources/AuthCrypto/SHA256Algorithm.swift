import COpenSSL

/// OpenSSL 3's SHA-256 implementation, fetched from the provider once. `EVP_sha256()`
/// makes every `EVP_DigestInit_ex` look the algorithm up again (a locked name lookup);
/// token verification hashes on every request, so it uses this pre-fetched one instead.
///
/// `@unchecked Sendable`: a fetched `EVP_MD` is immutable and OpenSSL documents fetched
/// algorithm objects as safe to share between threads (openssl-threads(7)). It is never
/// freed; it lives as long as the process, like the provider that owns it.
final class SHA256Algorithm: @unchecked Sendable {
    static let shared = SHA256Algorithm()

    let digest: OpaquePointer

    private init() {
        // Fails only if the default provider cannot load, i.e. libcrypto is broken;
        // nothing in this module can work without it.
        guard let digest = EVP_MD_fetch(nil, "SHA256", nil) else {
            fatalError("EVP_MD_fetch(SHA256) failed: the OpenSSL default provider is unavailable")
        }
        self.digest = digest
    }
}
