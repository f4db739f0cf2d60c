import AuthCrypto
import CBOR
import Foundation
@testable import LatchkeyCore
import Testing
import TestSupport

/// The relying party's checks, played with an authenticator of the test's own: a P-256 key
/// made by `openssl`, authenticator data and client data built byte by byte, signatures
/// made by `openssl`. A good registration and sign-in pass; each way an attacker (or a
/// broken client) can get one part wrong is refused with its own reason.
@Suite struct WebAuthnCeremonyTests {
    static let party = RelyingParty(id: "auth.example.com", name: "Example", origins: ["https://auth.example.com", "ios:bundle-id:com.example.app"])
    static let challenge = Array("a challenge of thirty-two bytes!".utf8)
    static let credentialID: [UInt8] = Array(0..<16)

    /// The test's authenticator: its key pair, as files of `tool`, and its COSE public key.
    struct Authenticator {
        let tool: OpenSSLTool
        let cose: [UInt8]

        init() throws {
            tool = try OpenSSLTool()
            try tool.generateKey("key.pem", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
            // A P-256 SubjectPublicKeyInfo ends with the uncompressed point 04 ‖ x ‖ y.
            let point = try tool.publicKeyDER("key.pem").suffix(64)
            cose = TestCBOREncoder.encode(.map(coseKey([
                (1, .integer(2)), (3, .integer(-7)), (-1, .integer(1)), (-2, .bytes(Array(point.prefix(32)))), (-3, .bytes(Array(point.suffix(32)))),
            ])))
        }

        func sign(_ authenticatorData: [UInt8], _ clientData: [UInt8]) throws -> [UInt8] {
            try tool.signSHA256(authenticatorData + SHA256.hash(clientData), key: "key.pem")
        }
    }

    static let up: UInt8 = 0x01, uv: UInt8 = 0x04, attested: UInt8 = 0x40

    static func authenticatorData(rpID: String = party.id, flags: UInt8 = up | uv, counter: UInt32 = 7, credential: [UInt8]? = nil) -> [UInt8] {
        var bytes = SHA256.hash(Array(rpID.utf8)) + [credential == nil ? flags : flags | attested]
        bytes += withUnsafeBytes(of: counter.bigEndian, Array.init)
        if let credential {
            bytes += [UInt8](repeating: 0, count: 16) + [0, UInt8(credentialID.count)] + credentialID + credential
        }
        return bytes
    }

    static func clientData(_ type: String, challenge: [UInt8] = challenge, origin: String = "https://auth.example.com") -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    static func attestationObject(format: String, statement: [CBORMap.Entry] = [], authenticatorData: [UInt8]) -> [UInt8] {
        TestCBOREncoder.encode(.map(CBORMap([
            .init(key: .text("fmt"), value: .text(format)), .init(key: .text("attStmt"), value: .map(CBORMap(statement))),
            .init(key: .text("authData"), value: .bytes(authenticatorData)),
        ])))
    }

    func signIn(_ authenticator: Authenticator, authenticatorData: [UInt8] = authenticatorData(), clientData: [UInt8] = clientData("webauthn.get"),
                signature: [UInt8]? = nil) throws -> WebAuthnCeremony.Assertion {
        let signature = try signature ?? authenticator.sign(authenticatorData, clientData)
        return try WebAuthnCeremony.authenticate(
            authenticatorData: authenticatorData, clientData: try ClientData(clientData), signature: signature, storedKey: authenticator.cose, keys: PasskeyKeys(),
            for: Self.party)
    }

    @Test func aPasskeyRegistersWithNoAttestationAndSignsIn() throws {
        let authenticator = try Authenticator()
        defer { authenticator.tool.remove() }
        let data = Self.authenticatorData(counter: 0, credential: authenticator.cose)
        let registered = try WebAuthnCeremony.register(
            attestationObject: Self.attestationObject(format: "none", authenticatorData: data),
            clientData: try ClientData(Self.clientData("webauthn.create")), for: Self.party)
        #expect(registered.id == Self.credentialID)
        #expect(registered.publicKey == authenticator.cose, "the key is kept as the authenticator encoded it")
        #expect(registered.algorithm == .es256)

        let assertion = try signIn(authenticator)
        #expect(assertion.signCount == 7)
        // The iOS app's origin is one of the party's too.
        _ = try signIn(authenticator, clientData: Self.clientData("webauthn.get", origin: "ios:bundle-id:com.example.app"))
    }

    @Test func packedSelfAttestationIsVerifiedWithTheNewKey() throws {
        let authenticator = try Authenticator()
        defer { authenticator.tool.remove() }
        let data = Self.authenticatorData(counter: 0, credential: authenticator.cose)
        let clientData = Self.clientData("webauthn.create")
        let good = try authenticator.sign(data, clientData)
        func register(_ signature: [UInt8]) throws -> WebAuthnCeremony.NewCredential {
            try WebAuthnCeremony.register(
                attestationObject: Self.attestationObject(
                    format: "packed", statement: [.init(key: .text("alg"), value: .integer(-7)), .init(key: .text("sig"), value: .bytes(signature))],
                    authenticatorData: data),
                clientData: try ClientData(clientData), for: Self.party)
        }
        #expect(try register(good).id == Self.credentialID)
        var forged = good
        forged[forged.count - 1] ^= 0x01
        #expect(throws: WebAuthnFailure.attestation) { try register(forged) }
        #expect(throws: WebAuthnFailure.attestation, "a format this server does not read") {
            try WebAuthnCeremony.register(
                attestationObject: Self.attestationObject(format: "fido-u2f", authenticatorData: data),
                clientData: try ClientData(clientData), for: Self.party)
        }
    }

    /// A phishing page at another origin relays the victim's sign-in: its client data names
    /// its own origin, which the party does not accept; a look-alike spelled with U+212A
    /// KELVIN SIGN for `k` is not the same origin either.
    @Test(arguments: ["https://auth.example.co", "https://auth.example.com.evil.test", "https://auth.example.com:8443", "https://auth.exampl\u{0065}.\u{212A}om"])
    func anAssertionFromAnotherOriginIsRefused(_ origin: String) throws {
        let authenticator = try Authenticator()
        defer { authenticator.tool.remove() }
        #expect(throws: WebAuthnFailure.origin) { try signIn(authenticator, clientData: Self.clientData("webauthn.get", origin: origin)) }
    }

    @Test func eachPartGotWrongIsRefusedWithItsReason() throws {
        let authenticator = try Authenticator()
        defer { authenticator.tool.remove() }
        #expect(throws: WebAuthnFailure.rpID, "a credential of another RP ID") {
            try signIn(authenticator, authenticatorData: Self.authenticatorData(rpID: "example.com"))
        }
        #expect(throws: WebAuthnFailure.userPresence) { try signIn(authenticator, authenticatorData: Self.authenticatorData(flags: Self.uv)) }
        #expect(throws: WebAuthnFailure.userVerification) { try signIn(authenticator, authenticatorData: Self.authenticatorData(flags: Self.up)) }
        #expect(throws: WebAuthnFailure.type, "a registration's client data replayed as a sign-in") {
            try signIn(authenticator, clientData: Self.clientData("webauthn.create"))
        }
        #expect(throws: WebAuthnFailure.malformed, "bytes after the authenticator data") {
            try signIn(authenticator, authenticatorData: Self.authenticatorData() + [0])
        }
        #expect(throws: WebAuthnFailure.malformed, "client data that is not JSON") { try ClientData(Array("not json".utf8)) }

        let data = Self.authenticatorData()
        var tampered = try authenticator.sign(data, Self.clientData("webauthn.get"))
        tampered[tampered.count - 1] ^= 0x01
        #expect(throws: WebAuthnFailure.signature) { try signIn(authenticator, authenticatorData: data, signature: tampered) }
        // The counter changed after signing: the signature no longer covers these bytes.
        let signed = try authenticator.sign(data, Self.clientData("webauthn.get"))
        #expect(throws: WebAuthnFailure.signature) { try signIn(authenticator, authenticatorData: Self.authenticatorData(counter: 8), signature: signed) }
    }

    @Test func aKeyOutsideTheThreeAlgorithmsIsRefused() throws {
        // A P-384 key (ES384, -35): well formed, not one this party offers.
        let p384 = TestCBOREncoder.encode(.map(coseKey([
            (1, .integer(2)), (3, .integer(-35)), (-1, .integer(2)), (-2, .bytes([UInt8](repeating: 1, count: 48))), (-3, .bytes([UInt8](repeating: 2, count: 48))),
        ])))
        #expect(throws: WebAuthnFailure.algorithm) {
            try WebAuthnCeremony.register(
                attestationObject: Self.attestationObject(format: "none", authenticatorData: Self.authenticatorData(credential: p384)),
                clientData: try ClientData(Self.clientData("webauthn.create")), for: Self.party)
        }
    }
}
