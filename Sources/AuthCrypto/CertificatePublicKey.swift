import COpenSSL

/// The public key of an X.509 certificate (DER), for a packed attestation statement's
/// `x5c[0]`: the statement's signature is checked with it. Verification only: no chain,
/// no validity period, no trust anchor is looked at here.
public struct CertificatePublicKey: Sendable {
    /// The one algorithm this key signs with among WebAuthn's three.
    public let algorithm: COSEAlgorithm
    let key: EVPPublicKey

    /// Certificates in attestation statements are a few hundred bytes; this bounds what
    /// OpenSSL's DER decoder is handed.
    public static let maxCertificateBytes = 16 * 1024

    public init(der: [UInt8]) throws(CertificateKeyError) {
        guard !der.isEmpty, der.count <= Self.maxCertificateBytes else { throw .malformedCertificate }
        let key: EVPPublicKey? = der.withUnsafeBufferPointer { input in
            var cursor: UnsafePointer<UInt8>? = input.baseAddress
            guard let certificate = d2i_X509(nil, &cursor, input.count) else {
                ERR_clear_error()
                return nil
            }
            defer { X509_free(certificate) }
            // Bytes after the certificate mean it is not one certificate.
            guard cursor == input.baseAddress! + input.count,
                  let borrowed = X509_get0_pubkey(certificate),
                  EVP_PKEY_up_ref(borrowed) == 1
            else {
                ERR_clear_error()
                return nil
            }
            return EVPPublicKey(taking: borrowed)
        }
        guard let key else { throw .malformedCertificate }
        if key.isA("EC") {
            guard key.groupName == "prime256v1" else { throw .unsupportedKey }
            guard key.passesPublicCheck else { throw .pointNotOnCurve }
            algorithm = .es256
        } else if key.isA("RSA") {
            guard key.bits >= COSEKey.minRSABits else { throw .rsaModulusTooShort }
            guard key.bits <= COSEKey.maxRSABytes * 8 else { throw .rsaModulusTooLong }
            algorithm = .rs256
        } else if key.isA("ED25519") {
            algorithm = .eddsa
        } else {
            throw .unsupportedKey
        }
        self.key = key
    }

    /// Checks `signature` over `message` made with `algorithm` (the statement's `alg`),
    /// which must be the one this key signs with.
    public func verify(signature: [UInt8], over message: [UInt8], algorithm: COSEAlgorithm) throws(SignatureError) {
        guard algorithm == self.algorithm else { throw .algorithmMismatch }
        try key.verify(algorithm, signature: signature, message: message)
    }
}

/// Why a certificate's key was refused for attestation.
public enum CertificateKeyError: Error, Equatable, Sendable {
    /// Not exactly one DER X.509 certificate (empty, too long, undecodable, bytes after
    /// it), or one whose public key OpenSSL cannot decode.
    case malformedCertificate
    /// A key other than P-256, RSA or Ed25519.
    case unsupportedKey
    /// An EC key whose point fails OpenSSL's public-key check.
    case pointNotOnCurve
    case rsaModulusTooShort
    case rsaModulusTooLong
}
