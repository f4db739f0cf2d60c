import COpenSSL

/// OpenSSL frees its global state from an `atexit` handler by default. A server exits
/// with threads of its own (and libpq, loaded later with its own use of libcrypto) still
/// holding that state, and the handler then reads freed memory: a SIGTERM that ended in
/// "stopped" was seen to crash (signal 11, inside libcrypto, on the main thread at
/// exit). The kernel reclaims everything at exit anyway, so the handler is never
/// registered.
public enum OpenSSLExit {
    /// Call first, before any other OpenSSL call: the first initialisation decides.
    public static func leaveCleanupToTheKernel() {
        _ = OPENSSL_init_crypto(UInt64(OPENSSL_INIT_NO_ATEXIT), nil)
    }
}
