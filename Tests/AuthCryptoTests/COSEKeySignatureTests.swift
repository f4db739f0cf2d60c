import AuthCrypto
import CBOR
import Testing
import TestSupport

/// Signatures made by the `openssl` command with keys it made, checked through COSE keys
/// read the way a passkey's credential public key is read: from its CBOR bytes.
@Suite struct COSEKeySignatureTests {
    @Suite struct ES256 {
        @Test func acceptsOpenSSLsDERSignature() throws {
            let tool = try OpenSSLTool()
            defer { tool.remove() }
            let fixture = try P256Fixture(tool)
            let key = try COSEKey(encoded: TestCBOREncoder.encode(.map(fixture.cose)))
            #expect(key.algorithm == .es256)
            try key.verify(signature: try tool.signSHA256(signedMessage, key: fixture.key), over: signedMessage)
        }

        @Test func refusesATamperedSignatureAnotherMessageAndAnotherKey() throws {
            let tool = try OpenSSLTool()
            defer { tool.remove() }
            let fixture = try P256Fixture(tool)
            let other = try P256Fixture(tool, name: "other.pem")
            let key = try COSEKey(fixture.cose)
            let signature = try tool.signSHA256(signedMessage, key: fixture.key)
            // Flipping s's last bit keeps the DER well-formed: only the value is wrong.
            #expect(throws: SignatureError.mismatch) { try key.verify(signature: tampered(signature), over: signedMessage) }
            #expect(throws: SignatureError.mismatch) { try key.verify(signature: signature, over: tampered(signedMessage)) }
            #expect(throws: SignatureError.mismatch) { try COSEKey(other.cose).verify(signature: signature, over: signedMessage) }
        }

        /// WebAuthn's ES256 signatures are DER; the raw r ‖ s form (COSE's own, JWS's) and
        /// DER with bytes after it are refused before OpenSSL sees them.
        @Test func refusesSignaturesThatAreNotStrictDER() throws {
            let tool = try OpenSSLTool()
            defer { tool.remove() }
            let fixture = try P256Fixture(tool)
            let key = try COSEKey(fixture.cose)
            let signature = try tool.signSHA256(signedMessage, key: fixture.key)
            #expect(throws: SignatureError.malformedSignature) { try key.verify(signature: signature + [0x00], over: signedMessage) }
            #expect(throws: SignatureError.malformedSignature) { try key.verify(signature: [UInt8](repeating: 0x11, count: 64), over: signedMessage) }
            #expect(throws: SignatureError.malformedSignature) { try key.verify(signature: [], over: signedMessage) }
            // The same SEQUENCE with its length in the long form (0x81 0x44): BER, not DER.
            #expect(signature[1] < 0x80)
            let longForm = [signature[0], 0x81] + signature[1...]
            #expect(throws: SignatureError.malformedSignature) { try key.verify(signature: longForm, over: signedMessage) }
        }
    }

    @Suite struct RS256 {
        @Test func acceptsOpenSSLsPKCS1Signature() throws {
            let tool = try OpenSSLTool()
            defer { tool.remove() }
            let fixture = try RSAFixture(tool, bits: 2048)
            let key = try COSEKey(encoded: TestCBOREncoder.encode(.map(fixture.cose)))
            #expect(key.algorithm == .rs256)
            try key.verify(signature: try tool.signSHA256(signedMessage, key: fixture.key), over: signedMessage)
        }

        @Test func refusesATamperedSignatureAndAnotherKey() throws {
            let tool = try OpenSSLTool()
            defer { tool.remove() }
            let fixture = try RSAFixture(tool, bits: 2048)
            let other = try RSAFixture(tool, bits: 2048, name: "other.pem")
            let signature = try tool.signSHA256(signedMessage, key: fixture.key)
            #expect(throws: SignatureError.mismatch) { try COSEKey(fixture.cose).verify(signature: tampered(signature), over: signedMessage) }
            #expect(throws: SignatureError.mismatch) { try COSEKey(other.cose).verify(signature: signature, over: signedMessage) }
            #expect(throws: SignatureError.malformedSignature) {
                try COSEKey(fixture.cose).verify(signature: Array(signature.dropLast()), over: signedMessage)
            }
        }

        @Test func refusesAKeyShorterThan2048Bits() throws {
            let tool = try OpenSSLTool()
            defer { tool.remove() }
            let short = try RSAFixture(tool, bits: 1024)
            #expect(throws: COSEKeyError.rsaModulusTooShort) { try COSEKey(short.cose) }
        }
    }

    @Suite struct EdDSA {
        /// RFC 8032 §7.1, TEST 1 (the empty message) and TEST 2 (one byte).
        static let rfc8032: [(publicKey: String, message: String, signature: String)] = [
            ("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
             "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"),
            ("3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
             "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"),
        ]

        @Test(arguments: 0..<2)
        func acceptsRFC8032Vector(_ index: Int) throws {
            let vector = Self.rfc8032[index]
            let key = try COSEKey(okpKey([UInt8](hex: vector.publicKey)))
            #expect(key.algorithm == .eddsa)
            try key.verify(signature: [UInt8](hex: vector.signature), over: [UInt8](hex: vector.message))
            #expect(throws: SignatureError.mismatch) {
                try key.verify(signature: tampered([UInt8](hex: vector.signature)), over: [UInt8](hex: vector.message))
            }
        }

        @Test func refusesRFC8032VectorUnderTheOtherVectorsKey() throws {
            let key = try COSEKey(okpKey([UInt8](hex: Self.rfc8032[1].publicKey)))
            #expect(throws: SignatureError.mismatch) {
                try key.verify(signature: [UInt8](hex: Self.rfc8032[0].signature), over: [UInt8](hex: Self.rfc8032[0].message))
            }
        }

        @Test func acceptsOpenSSLsSignatureAndRefusesAShortOne() throws {
            let tool = try OpenSSLTool()
            defer { tool.remove() }
            let fixture = try Ed25519Fixture(tool)
            let key = try COSEKey(encoded: TestCBOREncoder.encode(.map(fixture.cose)))
            let signature = try tool.signEd25519(signedMessage, key: fixture.key)
            try key.verify(signature: signature, over: signedMessage)
            #expect(throws: SignatureError.mismatch) { try key.verify(signature: signature, over: tampered(signedMessage)) }
            #expect(throws: SignatureError.malformedSignature) { try key.verify(signature: Array(signature.prefix(63)), over: signedMessage) }
        }
    }
}
