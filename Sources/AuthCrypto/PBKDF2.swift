import COpenSSL

/// PBKDF2-HMAC-SHA256 (RFC 8018): the password KDF available everywhere OpenSSL is,
/// FIPS-approved, and tunable by iteration count as hardware gets faster.
public enum PBKDF2 {
    /// Deliberately slow (that is the point); callers keep it off the event loops.
    public static func sha256(password: [UInt8], salt: [UInt8], iterations: Int, keyLength: Int) -> [UInt8] {
        // Out-of-range parameters are programmer errors: stored hashes are range-checked
        // by PHCString before they reach this function.
        precondition(iterations >= 1 && iterations <= Int(Int32.max), "PBKDF2: iterations out of range")
        precondition(keyLength >= 1 && keyLength <= 1024, "PBKDF2: keyLength out of range")
        precondition(password.count <= Int(Int32.max) && salt.count <= Int(Int32.max), "PBKDF2: input too long")

        // OpenSSL rejects a NULL salt pointer, and an empty Swift array may have none.
        var emptyInput: UInt8 = 0
        return withUnsafePointer(to: &emptyInput) { empty in
            password.withUnsafeBufferPointer { password in
                salt.withUnsafeBufferPointer { salt in
                    [UInt8](unsafeUninitializedCapacity: keyLength) { output, initialized in
                        let passwordPointer = UnsafeRawPointer(password.baseAddress ?? empty)
                            .assumingMemoryBound(to: CChar.self)
                        // Fails only on allocation failure inside OpenSSL; a silently wrong
                        // hash would lock users out or let anyone in, so we stop instead.
                        guard PKCS5_PBKDF2_HMAC(passwordPointer, Int32(password.count),
                                                salt.baseAddress ?? empty, Int32(salt.count),
                                                Int32(iterations), EVP_sha256(),
                                                Int32(keyLength), output.baseAddress) == 1
                        else {
                            fatalError("PKCS5_PBKDF2_HMAC failed")
                        }
                        initialized = keyLength
                    }
                }
            }
        }
    }
}
