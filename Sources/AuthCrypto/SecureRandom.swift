import COpenSSL

/// Randomness for salts, keys and tokens comes from OpenSSL's CSPRNG (seeded by the OS),
/// never from `SystemRandomNumberGenerator` wrappers we would have to audit ourselves.
public enum SecureRandom {
    /// Returns `count` cryptographically secure random bytes.
    public static func bytes(_ count: Int) -> [UInt8] {
        // A negative or > Int32 count is a programmer error, not a runtime condition.
        precondition(count >= 0 && count <= Int(Int32.max), "SecureRandom.bytes: count out of range")
        guard count > 0 else { return [] }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            // RAND_bytes fails only when the OS entropy source is broken or unavailable.
            // Carrying on would hand out predictable salts and session tokens, so we stop.
            guard RAND_bytes(buffer.baseAddress, Int32(count)) == 1 else {
                fatalError("RAND_bytes failed: the operating system's random number generator is unavailable")
            }
            initialized = count
        }
    }
}
