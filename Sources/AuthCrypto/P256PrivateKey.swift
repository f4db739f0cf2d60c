import COpenSSL

/// A P-256 private key that signs ES256 (RFC 7518 §3.4): this server's access tokens when
/// `accessTokenAlgorithm` is ES256, and the client secret Apple wants from a team's `.p8`
/// key. The public point is read once, for JWKS and for verifying our own tokens.
///
/// `@unchecked Sendable`: the key is never changed once built, and OpenSSL 3 lets many
/// threads sign with one `EVP_PKEY` at once, each through its own context (openssl-threads(7)).
public final class P256PrivateKey: @unchecked Sendable {
    static let coordinateLength = 32
    /// A PEM key file is a few hundred bytes; this bounds what OpenSSL's decoder is handed.
    static let maxPEMLength = 16 * 1024

    /// OpenSSL's key, private half included. `EVPPublicKey` is used only as the wrapper
    /// that frees it with its last reference; it never leaves this object.
    private let owner: EVPPublicKey
    private var pointer: OpaquePointer { owner.pointer }
    /// The affine coordinates of the public point, big-endian, 32 bytes each (a JWK's `x`, `y`).
    public let publicX: [UInt8]
    public let publicY: [UInt8]
    /// The public half alone as a verifying key, built once.
    let publicKey: EVPPublicKey

    /// Takes ownership of `owner`'s key whatever happens: a refused key is freed with it.
    private init(_ owner: EVPPublicKey) throws(P256KeyError) {
        self.owner = owner
        guard owner.isA("EC"), owner.groupName == "prime256v1" else { throw .unsupportedCurve }
        guard let x = Self.coordinate(owner.pointer, "qx"), let y = Self.coordinate(owner.pointer, "qy") else { throw .malformed }
        publicX = x
        publicY = y
        do {
            publicKey = try COSEKey.p256Key(x: x, y: y)
        } catch {
            throw .malformed
        }
    }

    /// A fresh key from OpenSSL's CSPRNG.
    public static func generate() -> P256PrivateKey {
        guard let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil) else { fatalError("EVP_PKEY_CTX_new_from_name(EC) failed") }
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(context) == 1,
              EVP_PKEY_CTX_set_group_name(context, "P-256") == 1,
              EVP_PKEY_generate(context, &key) == 1,
              let key
        else { fatalError("P-256 key generation failed") }
        do {
            return try P256PrivateKey(EVPPublicKey(taking: key))
        } catch {
            // OpenSSL just made this key on P-256; reading it back cannot fail.
            fatalError("a generated P-256 key was refused: \(error)")
        }
    }

    /// A key from a PEM file: PKCS#8 (`BEGIN PRIVATE KEY`, as Apple's `.p8` files and
    /// `pkcs8PEM` are) or SEC1 (`BEGIN EC PRIVATE KEY`, as `openssl ecparam -genkey` writes).
    /// Encrypted keys, other key types and other curves are refused; nothing from the file
    /// reaches the error.
    public convenience init(pem: String) throws(P256KeyError) {
        let bytes = Array(pem.utf8)
        guard bytes.count <= Self.maxPEMLength else { throw .malformed }
        guard let label = Self.firstLabel(bytes) else { throw .malformed }
        guard label.elementsEqual("PRIVATE KEY".utf8) || label.elementsEqual("EC PRIVATE KEY".utf8) else { throw .unsupportedFormat }
        let key: OpaquePointer? = bytes.withUnsafeBytes { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { fatalError("BIO_new_mem_buf failed (out of memory)") }
            defer { BIO_free(bio) }
            // A passphrase callback that gives none: OpenSSL's default would prompt on the terminal.
            let key = PEM_read_bio_PrivateKey(bio, nil, { _, _, _, _ in 0 }, nil)
            if key == nil { ERR_clear_error() }
            return key
        }
        guard let key else { throw .malformed }
        try self.init(EVPPublicKey(taking: key))
        guard pairwiseCheck() else { throw .malformed }
    }

    /// PKCS#8 PEM, unencrypted: what the keyring file holds (mode 0600) and `init(pem:)` reads.
    public var pkcs8PEM: String {
        guard let bio = BIO_new(BIO_s_mem()) else { fatalError("BIO_new failed (out of memory)") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, pointer, nil, nil, 0, nil, nil) == 1 else {
            fatalError("PEM_write_bio_PrivateKey failed")
        }
        let length = Int(BIO_ctrl_pending(bio))
        var text = [UInt8](repeating: 0, count: length)
        let read = text.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32(length)) }
        guard read == Int32(length) else { fatalError("BIO_read of a memory BIO came up short") }
        return String(decoding: text, as: UTF8.self)
    }

    /// An ES256 signature over `message` (SHA-256, then ECDSA with a fresh random nonce) in
    /// JOSE's form: r ‖ s, 32 bytes each, not DER.
    public func signES256(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBufferPointer { signES256($0) }
    }

    func signES256(_ message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed (out of memory)") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit_ex(context, nil, "SHA256", nil, nil, pointer, nil) == 1 else {
            fatalError("EVP_DigestSignInit_ex failed for a P-256 key")
        }
        var der = [UInt8](repeating: 0, count: ECDSASignatureDER.maxLength)
        var length = der.count
        // OpenSSL wants a non-NULL pointer even for an empty input, and an empty buffer may have none.
        var spare: UInt8 = 0
        let signed = withUnsafePointer(to: &spare) { spare in
            der.withUnsafeMutableBufferPointer { der in
                EVP_DigestSign(context, der.baseAddress, &length, message.baseAddress ?? spare, message.count)
            }
        }
        guard signed == 1 else { fatalError("EVP_DigestSign failed for a P-256 key") }
        return der.withUnsafeBufferPointer { der -> [UInt8] in
            var cursor: UnsafePointer<UInt8>? = der.baseAddress
            guard let parsed = d2i_ECDSA_SIG(nil, &cursor, length) else { fatalError("OpenSSL's own ECDSA signature did not parse") }
            defer { ECDSA_SIG_free(parsed) }
            var r: OpaquePointer?
            var s: OpaquePointer?
            ECDSA_SIG_get0(parsed, &r, &s)
            var jose = [UInt8](repeating: 0, count: 2 * Self.coordinateLength)
            jose.withUnsafeMutableBufferPointer { jose in
                guard BN_bn2binpad(r, jose.baseAddress, Int32(Self.coordinateLength)) == Int32(Self.coordinateLength),
                      BN_bn2binpad(s, jose.baseAddress! + Self.coordinateLength, Int32(Self.coordinateLength)) == Int32(Self.coordinateLength)
                else { fatalError("a P-256 signature component is longer than 32 bytes") }
            }
            return jose
        }
    }

    /// Whether the private scalar and the public point belong together: a file could carry
    /// a public key that is not the private key's, and tokens would then never verify.
    private func pairwiseCheck() -> Bool {
        guard let context = EVP_PKEY_CTX_new_from_pkey(nil, pointer, nil) else { fatalError("EVP_PKEY_CTX_new_from_pkey failed (out of memory)") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_pairwise_check(context) == 1 else {
            ERR_clear_error()
            return false
        }
        return true
    }

    private static func coordinate(_ key: OpaquePointer, _ name: String) -> [UInt8]? {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else {
            ERR_clear_error()
            return nil
        }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: coordinateLength)
        let written = bytes.withUnsafeMutableBufferPointer { BN_bn2binpad(number, $0.baseAddress, Int32(coordinateLength)) }
        return written == Int32(coordinateLength) ? bytes : nil
    }

    /// The label of the first `-----BEGIN …-----` line, nil without one.
    private static func firstLabel(_ bytes: [UInt8]) -> ArraySlice<UInt8>? {
        let begin = Array("-----BEGIN ".utf8)
        let dashes = Array("-----".utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: begin) }) else { return nil }
        let labelStart = start + begin.count
        guard let end = bytes[labelStart...].indices.first(where: { bytes[$0...].starts(with: dashes) }) else { return nil }
        return bytes[labelStart..<end]
    }
}

/// Secrets never reach a log line: printing or dumping a key shows nothing of it.
extension P256PrivateKey: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    public var description: String { "P256PrivateKey(<redacted>)" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["key": "<redacted>"]) }
}

/// Why a PEM key was refused. Carries no key material.
public enum P256KeyError: Error, Equatable, Sendable {
    /// Not PEM, too long, undecodable, or a public point that does not match the private key.
    case malformed
    /// A PEM block other than `PRIVATE KEY` or `EC PRIVATE KEY` (an encrypted key, a certificate, a public key).
    case unsupportedFormat
    /// Not an EC key on P-256 (another curve, RSA, Ed25519).
    case unsupportedCurve
}
