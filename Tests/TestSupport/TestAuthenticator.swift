import CBOR
import Foundation

/// A passkey authenticator played by a test: a P-256 key of its own made by `openssl`,
/// authenticator data and client data built byte by byte, and the WebAuthn Level 3 JSON
/// forms (`RegistrationResponseJSON`, `AuthenticationResponseJSON`) a browser would send.
/// Hashes and signatures come from `openssl`, not from the server's code.
public final class TestAuthenticator {
    public static let userPresent: UInt8 = 0x01
    public static let userVerified: UInt8 = 0x04
    public static let backedUp: UInt8 = 0x18  // backup eligible and backed up
    static let attestedCredential: UInt8 = 0x40

    public let tool: OpenSSLTool
    public let credentialID: [UInt8]
    /// The COSE public key (ES256) as the authenticator encodes it.
    public let cose: [UInt8]

    public init(credentialID: [UInt8]? = nil) throws {
        tool = try OpenSSLTool()
        self.credentialID = credentialID ?? (0..<16).map { _ in UInt8.random(in: 0...255) }
        try tool.generateKey("key.pem", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
        // A P-256 SubjectPublicKeyInfo ends with the uncompressed point 04 ‖ x ‖ y.
        let point = try tool.publicKeyDER("key.pem").suffix(64)
        cose = TestCBOREncoder.encode(.map(coseKey([
            (1, .integer(2)), (3, .integer(-7)), (-1, .integer(1)), (-2, .bytes(Array(point.prefix(32)))), (-3, .bytes(Array(point.suffix(32)))),
        ])))
    }

    public func remove() { tool.remove() }

    public func sha256(_ bytes: [UInt8]) throws -> [UInt8] {
        try tool.write(bytes, to: "digest-input")
        return [UInt8](try tool.run(["dgst", "-sha256", "-binary", "digest-input"]))
    }

    public static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static func clientData(_ type: String, challenge: String, origin: String) -> [UInt8] {
        Array(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
    }

    /// RP ID hash ‖ flags ‖ counter, and on registration the attested credential.
    public func authenticatorData(rpID: String, flags: UInt8, counter: UInt32, attested: Bool) throws -> [UInt8] {
        var bytes = try sha256(Array(rpID.utf8)) + [attested ? flags | Self.attestedCredential : flags]
        bytes += withUnsafeBytes(of: counter.bigEndian, Array.init)
        if attested {
            bytes += [UInt8](repeating: 0, count: 16) + [UInt8(credentialID.count >> 8), UInt8(credentialID.count & 0xFF)] + credentialID + cose
        }
        return bytes
    }

    /// A `RegistrationResponseJSON` answering `challenge` (base64url, as the options gave
    /// it): `none` attestation, or `packed` self attestation signed by the new key.
    public func registration(
        challenge: String, rpID: String, origin: String, flags: UInt8 = userPresent | userVerified, format: String = "none"
    ) throws -> [String: Any] {
        let clientData = Self.clientData("webauthn.create", challenge: challenge, origin: origin)
        let data = try authenticatorData(rpID: rpID, flags: flags, counter: 0, attested: true)
        var statement: [CBORMap.Entry] = []
        if format == "packed" {
            let signature = try tool.signSHA256(data + sha256(clientData), key: "key.pem")
            statement = [.init(key: .text("alg"), value: .integer(-7)), .init(key: .text("sig"), value: .bytes(signature))]
        }
        let attestation = TestCBOREncoder.encode(.map(CBORMap([
            .init(key: .text("fmt"), value: .text(format)), .init(key: .text("attStmt"), value: .map(CBORMap(statement))),
            .init(key: .text("authData"), value: .bytes(data)),
        ])))
        let id = Self.base64URL(credentialID)
        return [
            "id": id, "rawId": id, "type": "public-key", "authenticatorAttachment": "platform", "clientExtensionResults": [String: Any](),
            "response": [
                "clientDataJSON": Self.base64URL(clientData), "attestationObject": Self.base64URL(attestation), "transports": ["internal"],
            ] as [String: Any],
        ]
    }

    /// An `AuthenticationResponseJSON` answering `challenge`; `tamper` flips a bit of the
    /// signature after signing.
    public func assertion(
        challenge: String, rpID: String, origin: String, flags: UInt8 = userPresent | userVerified, counter: UInt32 = 0,
        userHandle: String? = nil, tamper: Bool = false
    ) throws -> [String: Any] {
        let clientData = Self.clientData("webauthn.get", challenge: challenge, origin: origin)
        let data = try authenticatorData(rpID: rpID, flags: flags, counter: counter, attested: false)
        var signature = try tool.signSHA256(data + sha256(clientData), key: "key.pem")
        if tamper { signature[signature.count - 1] ^= 0x01 }
        let id = Self.base64URL(credentialID)
        var response: [String: Any] = [
            "clientDataJSON": Self.base64URL(clientData), "authenticatorData": Self.base64URL(data), "signature": Self.base64URL(signature),
        ]
        response["userHandle"] = userHandle ?? NSNull()
        return ["id": id, "rawId": id, "type": "public-key", "clientExtensionResults": [String: Any](), "response": response]
    }
}
