import AuthCrypto
import TestSupport
import Testing

/// A packed attestation's x5c[0]: a certificate made by `openssl req -x509`, the statement's
/// signature by the same key.
@Suite struct CertificatePublicKeyTests {
    @Test func verifiesWithAP256CertificatesKey() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        let der = try tool.selfSignedCertificate(key: tool.path("key.pem"), ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"])
        let key = try CertificatePublicKey(der: der)
        #expect(key.algorithm == .es256)
        let signature = try tool.signSHA256(signedMessage, key: tool.path("key.pem"))
        try key.verify(signature: signature, over: signedMessage, algorithm: .es256)
        #expect(throws: SignatureError.mismatch) { try key.verify(signature: tampered(signature), over: signedMessage, algorithm: .es256) }
        #expect(throws: SignatureError.algorithmMismatch) { try key.verify(signature: signature, over: signedMessage, algorithm: .rs256) }
    }

    @Test func verifiesWithAnEd25519CertificatesKey() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        let der = try tool.selfSignedCertificate(key: tool.path("key.pem"), ["-newkey", "ed25519"])
        let key = try CertificatePublicKey(der: der)
        #expect(key.algorithm == .eddsa)
        try key.verify(signature: try tool.signEd25519(signedMessage, key: tool.path("key.pem")), over: signedMessage, algorithm: .eddsa)
    }

    @Test func refusesAnRSACertificateShorterThan2048Bits() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        let der = try tool.selfSignedCertificate(key: tool.path("key.pem"), ["-newkey", "rsa:1024"])
        #expect(throws: CertificateKeyError.rsaModulusTooShort) { try CertificatePublicKey(der: der) }
    }

    @Test func refusesAP384Certificate() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        let der = try tool.selfSignedCertificate(key: tool.path("key.pem"), ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384"])
        #expect(throws: CertificateKeyError.unsupportedKey) { try CertificatePublicKey(der: der) }
    }

    @Test func refusesWhatIsNotExactlyOneCertificate() throws {
        let tool = try OpenSSLTool()
        defer { tool.remove() }
        let der = try tool.selfSignedCertificate(key: tool.path("key.pem"), ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256"])
        #expect(throws: CertificateKeyError.malformedCertificate) { try CertificatePublicKey(der: der + [0x00]) }
        #expect(throws: CertificateKeyError.malformedCertificate) { try CertificatePublicKey(der: Array(der.dropLast())) }
        #expect(throws: CertificateKeyError.malformedCertificate) { try CertificatePublicKey(der: []) }
        #expect(throws: CertificateKeyError.malformedCertificate) { try CertificatePublicKey(der: [0x30, 0x03, 0x02, 0x01, 0x00]) }
    }
}
