import COpenSSL

/// SHA-256 for things that are not passwords: fingerprints of refresh and reset tokens
/// stored in the database (so a database leak does not leak usable tokens), checksums.
public enum SHA256 {
    public static let digestLength = 32

    public static func hash(_ data: some Collection<UInt8>) -> [UInt8] {
        if let digest = data.withContiguousStorageIfAvailable({ digest(of: $0) }) {
            return digest
        }
        return Array(data).withUnsafeBufferPointer { digest(of: $0) }
    }

    static func digest(of input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: digestLength) { output, initialized in
            var length: UInt32 = 0
            // EVP_Digest fails only on allocation failure inside OpenSSL; a wrong hash
            // would silently corrupt every stored fingerprint, so trapping is safer.
            guard EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length,
                             SHA256Algorithm.shared.digest, nil) == 1,
                  length == UInt32(digestLength)
            else {
                fatalError("EVP_Digest(SHA-256) failed")
            }
            initialized = digestLength
        }
    }
}
