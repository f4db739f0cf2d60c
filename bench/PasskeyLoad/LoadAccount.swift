import AuthCrypto
import Foundation

/// One account of the load: its passkey and its connection.
struct LoadAccount {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let password = "correct horse battery staple"
    let port: UInt16
    let origin: String
    let key: P256Key
    let credentialID: [UInt8]
    var rpIDHash: [UInt8] = []
    var connection: LoadConnection

    /// Signs up `name` and registers a passkey for it.
    init(port: UInt16, origin: String, name: String) throws {
        self.port = port
        self.origin = origin
        key = try P256Key()
        credentialID = (0..<16).map { _ in UInt8.random(in: 0...255) }
        connection = try LoadConnection(port: port)
        var answer = try connection.request("POST", "/v1/auth/signup", body: #"{"email":"\#(name)@example.com","password":"\#(Self.password)","displayName":"\#(name)"}"#)
        for _ in 0..<100 where answer.status == 503 {  // the password-hash queue is full: again, shortly
            usleep(200_000)
            answer = try connection.request("POST", "/v1/auth/signup", body: #"{"email":"\#(name)@example.com","password":"\#(Self.password)","displayName":"\#(name)"}"#)
        }
        guard answer.status == 201, let token = answer.string("accessToken") else { throw Failure(description: "signup: \(answer.status) \(answer.text)") }
        let options = try connection.request("POST", "/v1/auth/passkeys/register/options", token: token)
        guard options.status == 200, let challenge = options.string("challenge"), let rpID = options.nested("rp", "id") else {
            throw Failure(description: "register options: \(options.status) \(options.text)")
        }
        rpIDHash = SHA256.hash(Array(rpID.utf8))
        let registered = try connection.request("POST", "/v1/auth/passkeys/register", body: registration(challenge: challenge), token: token)
        guard registered.status == 201 else { throw Failure(description: "register: \(registered.status) \(registered.text)") }
    }

    /// The same account over a new connection, after a failure closed the old one.
    static func reconnect(_ account: LoadAccount) throws -> LoadAccount {
        var fresh = account
        fresh.connection = try LoadConnection(port: account.port)
        return fresh
    }

    /// Options, then the assertion: one whole sign-in.
    mutating func signIn() throws {
        let options = try connection.request("POST", "/v1/auth/passkeys/login/options", body: "{}")
        guard options.status == 200, let challenge = options.string("challenge") else { throw Failure(description: "options: \(options.status) \(options.text)") }
        let clientData = Array(#"{"type":"webauthn.get","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
        let authenticatorData = rpIDHash + [0x05, 0, 0, 0, 0]  // UP and UV; a synced passkey's counter, 0
        let signature = try key.sign(authenticatorData + SHA256.hash(clientData))
        let id = Base64URL.encode(credentialID)
        let body = #"{"credential":{"id":"\#(id)","rawId":"\#(id)","type":"public-key","response":{"clientDataJSON":"\#(Base64URL.encode(clientData))","authenticatorData":"\#(Base64URL.encode(authenticatorData))","signature":"\#(Base64URL.encode(signature))"},"clientExtensionResults":{}}}"#
        let answer = try connection.request("POST", "/v1/auth/passkeys/login", body: body)
        guard answer.status == 200, answer.contains("\"accessToken\"") else { throw Failure(description: "sign-in: \(answer.status) \(answer.text)") }
    }

    /// `RegistrationResponseJSON` with `none` attestation: authenticator data holding the
    /// credential id and its COSE key, CBOR written by hand (maps of known size).
    private func registration(challenge: String) -> String {
        let point = key.publicPoint
        var cose: [UInt8] = [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20]
        cose += point[1...32] + [0x22, 0x58, 0x20] + point[33...64]
        let authenticatorData = rpIDHash + [0x45, 0, 0, 0, 0] + [UInt8](repeating: 0, count: 16)
            + [0, UInt8(credentialID.count)] + credentialID + cose
        var attestation: [UInt8] = [0xA3, 0x63] + Array("fmt".utf8) + [0x64] + Array("none".utf8) + [0x67] + Array("attStmt".utf8) + [0xA0]
        attestation += [0x68] + Array("authData".utf8) + [0x59, UInt8(authenticatorData.count >> 8), UInt8(authenticatorData.count & 0xFF)] + authenticatorData
        let clientData = Array(#"{"type":"webauthn.create","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
        let id = Base64URL.encode(credentialID)
        return #"{"name":"load","credential":{"id":"\#(id)","rawId":"\#(id)","type":"public-key","response":{"clientDataJSON":"\#(Base64URL.encode(clientData))","attestationObject":"\#(Base64URL.encode(attestation))"},"clientExtensionResults":{}}}"#
    }
}
