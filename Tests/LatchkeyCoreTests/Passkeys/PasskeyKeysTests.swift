import AuthCrypto
@testable import LatchkeyCore
import Testing

/// The built keys kept across sign-ins answer for their own stored bytes only: with two
/// passkeys' keys kept, each verifies its own signature and refuses the other's.
@Suite struct PasskeyKeysTests {
    typealias Ceremony = WebAuthnCeremonyTests

    @Test func aKeptKeyVerifiesOnlyItsOwnPasskeysSignatures() throws {
        let (alice, mallory) = (try Ceremony.Authenticator(), try Ceremony.Authenticator())
        let keys = PasskeyKeys()
        let data = Ceremony.authenticatorData()
        let client = Ceremony.clientData("webauthn.get")
        let signed = data + SHA256.hash(client)
        for _ in 0..<2 {  // built, then kept
            #expect(throws: Never.self) { try keys.key(alice.cose).verify(signature: try alice.sign(data, client), over: signed) }
            #expect(throws: SignatureError.mismatch) { try keys.key(alice.cose).verify(signature: try mallory.sign(data, client), over: signed) }
            #expect(throws: SignatureError.mismatch) { try keys.key(mallory.cose).verify(signature: try alice.sign(data, client), over: signed) }
        }
    }

    @Test func aStoredKeyThatIsNotAKeyIsRefusedEveryTime() {
        let keys = PasskeyKeys()
        for _ in 0..<2 {
            #expect(throws: WebAuthnFailure.malformed) { try keys.key([0xA0, 0xFF]) }
        }
    }
}
