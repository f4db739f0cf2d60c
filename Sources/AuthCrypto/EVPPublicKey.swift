import COpenSSL

/// An OpenSSL public key, freed with its last reference.
///
/// `@unchecked Sendable`: the key is never changed once built, and OpenSSL 3 lets many
/// threads verify with one `EVP_PKEY` at once (openssl-threads(7)).
final class EVPPublicKey: @unchecked Sendable {
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit {
        EVP_PKEY_free(pointer)
    }

    /// The key's size: the modulus for RSA, the curve's order for EC.
    var bits: Int { Int(EVP_PKEY_get_bits(pointer)) }

    /// Whether the key is of OpenSSL's type `name` ("EC", "RSA", "ED25519").
    func isA(_ name: String) -> Bool {
        EVP_PKEY_is_a(pointer, name) == 1
    }

    /// An EC key's group ("prime256v1" for P-256), nil for any other key.
    var groupName: String? {
        var name = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_group_name(pointer, &name, name.count, &length) == 1 else {
            ERR_clear_error()
            return nil
        }
        return String(decoding: name.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// OpenSSL's quick public-key check; for EC, the point is on the curve and not the
    /// point at infinity. On P-256 (cofactor 1) every such point is in the group, so the
    /// full check's multiplication by the order would add nothing but time to each sign-in.
    var passesPublicCheck: Bool {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else {
            fatalError("EVP_PKEY_CTX_new_from_pkey failed (out of memory)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_public_check_quick(context) == 1 else {
            ERR_clear_error()
            return false
        }
        return true
    }

    /// A public key of OpenSSL's `type` from the parameters `push` adds to a builder; their
    /// names and values must stay valid until this returns (the builder keeps pointers, see
    /// `OSSLParameterName`). Nil when OpenSSL refuses them.
    static func fromParameters(type: String, _ push: (OpaquePointer) -> Bool) -> EVPPublicKey? {
        guard let builder = OSSL_PARAM_BLD_new() else { fatalError("OSSL_PARAM_BLD_new failed (out of memory)") }
        defer { OSSL_PARAM_BLD_free(builder) }
        guard push(builder), let parameters = OSSL_PARAM_BLD_to_param(builder) else {
            ERR_clear_error()
            return nil
        }
        defer { OSSL_PARAM_free(parameters) }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else {
            // The default provider has all three key types; only a broken libcrypto lacks one.
            fatalError("EVP_PKEY_CTX_new_from_name(\(type)) failed")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_fromdata_init(context) == 1,
              EVP_PKEY_fromdata(context, &key, latchkey_evp_pkey_public_key_selection(), parameters) == 1,
              let key
        else {
            ERR_clear_error()
            return nil
        }
        return EVPPublicKey(taking: key)
    }
}
