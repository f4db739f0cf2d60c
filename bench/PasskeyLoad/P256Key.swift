import COpenSSL

/// A P-256 key pair made by OpenSSL, signing as an authenticator does (ECDSA over SHA-256,
/// the signature in DER).
final class P256Key {
    private let key: OpaquePointer
    /// `04 ‖ x ‖ y`.
    let publicPoint: [UInt8]

    struct Failure: Error {}

    init() throws {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { throw Failure() }
        defer { EVP_PKEY_CTX_free(context) }
        var made: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1, EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
              EVP_PKEY_generate(context, &made) == 1, let made
        else { throw Failure() }
        key = made
        var point = [UInt8](repeating: 0, count: 65)
        var length = 0
        guard EVP_PKEY_get_octet_string_param(made, "pub", &point, point.count, &length) == 1, length == 65 else { throw Failure() }
        publicPoint = point
    }

    deinit { EVP_PKEY_free(key) }

    func sign(_ message: [UInt8]) throws -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw Failure() }
        defer { EVP_MD_CTX_free(context) }
        var signature = [UInt8](repeating: 0, count: 80)
        var length = signature.count
        guard EVP_DigestSignInit_ex(context, nil, "SHA256", nil, nil, key, nil) == 1,
              EVP_DigestSign(context, &signature, &length, message, message.count) == 1
        else { throw Failure() }
        return Array(signature.prefix(length))
    }
}
