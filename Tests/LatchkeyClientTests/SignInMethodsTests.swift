import Foundation
import LatchkeyClient
import Testing
import TestSupport

/// The client's passkey and second-factor calls against the real server: the test plays
/// the user's authenticator app (`TestTOTP`) and the platform's passkey provider
/// (`TestAuthenticator`, a P-256 key of its own), where an app would use the phone's.
@Suite(.timeLimit(.minutes(1))) struct SignInMethodsTests {
    let password = ClientTestServer.password
    static let rpID = "auth.latchkey.test"
    static let origin = "https://auth.latchkey.test"

    /// The code of the step after `time`'s, still inside the window the server accepts,
    /// so it is not the one enrolment just spent.
    static func nextCode(_ secret: String, after time: Date = Date()) throws -> String {
        guard let bytes = TestTOTP.base32Decoded(secret) else { throw TestError("not base32") }
        return TestTOTP.code(secret: bytes, step: UInt64(time.timeIntervalSince1970) / 30 + 1, digits: 6)
    }

    @Test func aSecondFactorIsEnrolledAndAPasswordSignInThenNeedsItsCode() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let phone = server.client()
        try await phone.signUp(email: "ada@example.com", password: password, displayName: "ada")
        let enrollment = try await phone.enrollTOTP(password: password)
        #expect(enrollment.otpauthURI.hasPrefix("otpauth://totp/"))
        let recoveryCodes = try await phone.confirmTOTP(code: try TestTOTP.code(enrollment.secret))
        #expect(recoveryCodes.count == 10)
        #expect(try await phone.secondFactorStatus().totpEnabled)
        await phone.signOut()

        // The password alone no longer signs in: the client throws the challenge.
        var challenge: SecondFactorChallenge?
        do {
            try await phone.signIn(email: "ada@example.com", password: password)
        } catch LatchkeyError.secondFactorRequired(let asked) {
            challenge = asked
        }
        let asked = try #require(challenge, "a password sign-in of an account with a factor stops at the challenge")
        #expect(asked.methods == ["totp", "recoveryCode"])
        #expect(await phone.currentUser == nil, "nobody is signed in before the code")
        do {
            try await phone.completeSignIn(asked, code: "000000")
            Issue.record("a wrong code signed in")
        } catch let error as LatchkeyError {
            #expect(error.code == .mfaCodeInvalid, "\(error)")
        }
        let user = try await phone.completeSignIn(asked, code: try Self.nextCode(enrollment.secret))
        #expect(user.email == "ada@example.com")
        #expect(await phone.currentUser == user)

        // A lost phone: a recovery code instead, once.
        await phone.signOut()
        var second: SecondFactorChallenge?
        do {
            try await phone.signIn(email: "ada@example.com", password: password)
        } catch LatchkeyError.secondFactorRequired(let asked) {
            second = asked
        }
        try await phone.completeSignIn(try #require(second), recoveryCode: recoveryCodes[0])
        #expect(try await phone.secondFactorStatus().recoveryCodesLeft == 9)
        let renewed = try await phone.replaceRecoveryCodes(password: password)
        #expect(renewed.count == 10 && Set(renewed).isDisjoint(with: recoveryCodes))
        try await phone.removeTOTP(password: password)
        #expect(try await phone.secondFactorStatus().totpEnabled == false)
    }

    @Test func aPasskeyIsRegisteredAndSignsInAlone() async throws {
        let server = try ClientTestServer(["--webauthn-rp-id", Self.rpID, "--webauthn-origins", Self.origin])
        defer { server.stop() }
        let authenticator = try TestAuthenticator()
        defer { authenticator.remove() }
        let phone = server.client()
        let ada = try await phone.signUp(email: "ada@example.com", password: password, displayName: "ada")

        let creation = try await phone.passkeyCreationOptions()
        #expect(creation.rp.id == Self.rpID)
        #expect(creation.user.name == "ada@example.com" && creation.user.id.count >= 16, "an opaque handle, not the user id")
        let made = try authenticator.registration(challenge: Self.base64URL(creation.challenge), rpID: creation.rp.id, origin: Self.origin)
        let passkey = try await phone.registerPasskey(try Self.registration(made), name: "Test phone")
        #expect(passkey.name == "Test phone" && passkey.lastUsedAt == nil)
        #expect(try await phone.passkeys().map(\.id) == [passkey.id])
        #expect(try await phone.renamePasskey(id: passkey.id, to: "Work phone").name == "Work phone")
        await phone.signOut()

        let request = try await phone.passkeyRequestOptions()
        #expect(request.rpId == Self.rpID)
        let signed = try authenticator.assertion(challenge: Self.base64URL(request.challenge), rpID: request.rpId, origin: Self.origin)
        let user = try await phone.signIn(withPasskey: try Self.assertion(signed))
        #expect(user.id == ada.id)
        #expect(await phone.currentUser == user)

        // A tampered signature is refused with its reason.
        let again = try await phone.passkeyRequestOptions()
        let tampered = try authenticator.assertion(challenge: Self.base64URL(again.challenge), rpID: again.rpId, origin: Self.origin, tamper: true)
        do {
            try await phone.signIn(withPasskey: try Self.assertion(tampered))
            Issue.record("a tampered assertion signed in")
        } catch let error as LatchkeyError {
            #expect(error.code == .webAuthnInvalid && error.problem?.reason == "SIGNATURE", "\(error)")
        }
        do {
            try await phone.deletePasskey(id: passkey.id, password: "not the password")
            Issue.record("deleted with a wrong password")
        } catch let error as LatchkeyError {
            #expect(error.code == .invalidLoginCredentials, "\(error)")
        }
        try await phone.deletePasskey(id: passkey.id, password: password)
        #expect(try await phone.passkeys().isEmpty)
    }

    static func base64URL(_ data: Data) -> String { TestAuthenticator.base64URL(Array(data)) }

    static func bytes(_ text: Any?) throws -> Data {
        guard var base64 = text as? String else { throw TestError("not a string: \(String(describing: text))") }
        base64 = base64.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64) else { throw TestError("not base64url") }
        return data
    }

    /// The test authenticator's `RegistrationResponseJSON` as the client's type.
    static func registration(_ json: [String: Any]) throws -> PasskeyRegistration {
        let response = json["response"] as? [String: Any] ?? [:]
        return PasskeyRegistration(
            credentialID: try bytes(json["rawId"]), clientDataJSON: try bytes(response["clientDataJSON"]),
            attestationObject: try bytes(response["attestationObject"])
        )
    }

    static func assertion(_ json: [String: Any]) throws -> PasskeyAssertion {
        let response = json["response"] as? [String: Any] ?? [:]
        return PasskeyAssertion(
            credentialID: try bytes(json["rawId"]), clientDataJSON: try bytes(response["clientDataJSON"]),
            authenticatorData: try bytes(response["authenticatorData"]), signature: try bytes(response["signature"]),
            userHandle: response["userHandle"] is String ? try bytes(response["userHandle"]) : nil
        )
    }
}
