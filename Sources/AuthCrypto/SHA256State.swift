import COpenSSL

/// SHA-256 part-way through a message: OpenSSL's `SHA256_CTX`, a plain value of 112 bytes
/// (through the COpenSSL shim). A copy is a memberwise copy, so a state kept after some
/// blocks (an HMAC key's pads, `HMACKey`) is shared read-only by every thread and
/// continued from a copy of its own, with no allocation and nothing shared that changes.
/// EVP_MD_CTX_copy_ex would allocate a new provider context on each copy.
struct SHA256State: Sendable {
    private var context = SHA256_CTX()

    init() {
        // Fails only on a null pointer; trapping beats hashing from garbage.
        guard latchkey_sha256_init(&context) == 1 else { fatalError("SHA256_Init failed") }
    }

    mutating func absorb(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard latchkey_sha256_update(&context, bytes.baseAddress, bytes.count) == 1 else { fatalError("SHA256_Update failed") }
    }

    /// Writes the digest (32 bytes) into `output`. The state is spent: OpenSSL wipes the
    /// block buffer, so the caller finishes a copy.
    mutating func finish(into output: UnsafeMutablePointer<UInt8>) {
        guard latchkey_sha256_final(output, &context) == 1 else { fatalError("SHA256_Final failed") }
    }
}
