import Foundation
import LatchkeyClient
import Testing

/// The calls that send mail, followed through the development mail drop
/// (`{dataDir}/mail/*.eml`) as a user following the links would.
@Suite(.timeLimit(.minutes(1))) struct MailTests {
    let password = ClientTestServer.password

    /// The token of the first link to `page` in a mail.
    static func token(_ page: String, in mail: String) -> String? {
        guard let start = mail.range(of: page + "?token=") else { return nil }
        let token = mail[start.upperBound...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
        return token.isEmpty ? nil : String(token)
    }

    @Test func aPasswordResetByMailSetsTheNewPassword() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let ada = server.client()
        try await ada.signUp(email: "ada@example.com", password: password, displayName: "ada")
        try await ada.sendPasswordReset(email: "ada@example.com")
        try await ada.sendPasswordReset(email: "nobody@example.com")  // the same answer: nothing is given away
        await expectRefusal(400, .invalidEmail) { try await ada.sendPasswordReset(email: "not an address") }
        let mail = try #require(try server.mails(atLeast: 1).first)
        let token = try #require(Self.token("reset-password", in: mail))

        await expectRefusal(400, .weakPassword) { try await ada.confirmPasswordReset(token: token, newPassword: "password") }
        try await ada.confirmPasswordReset(token: token, newPassword: "a brand new passphrase")
        await expectSessionEnded(.sessionRevoked) { _ = try await ada.reloadUser() }
        await expectRefusal(400, .resetTokenInvalid) { try await ada.confirmPasswordReset(token: token, newPassword: "yet another passphrase") }
        #expect(try await ada.signIn(email: "ada@example.com", password: "a brand new passphrase").email == "ada@example.com")
    }

    @Test func confirmingTheAddressShowsAfterAReload() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let ada = server.client()
        try await ada.signUp(email: "ada@example.com", password: password, displayName: "ada")
        try await ada.sendEmailVerification()
        let mail = try #require(try server.mails(atLeast: 1).first)
        let token = try #require(Self.token("verify-email", in: mail))
        try await ada.confirmEmail(token: token)
        #expect(try await ada.reloadUser().emailVerified)
        #expect(await ada.currentUser?.emailVerified == true)
        await expectRefusal(409, .emailAlreadyVerified) { try await ada.sendEmailVerification() }
        await expectRefusal(400, .verifyTokenInvalid) { try await ada.confirmEmail(token: token) }
    }

    @Test func changingTheEmailWaitsForTheNewAddressesLink() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let ada = server.client()
        try await ada.signUp(email: "ada@example.com", password: password, displayName: "ada")
        try await server.client().signUp(email: "taken@example.com", password: password, displayName: "taken")
        await expectRefusal(409, .emailExists) { try await ada.changeEmail(to: "taken@example.com", password: password) }
        await expectRefusal(401, .invalidLoginCredentials) { try await ada.changeEmail(to: "ada@new.example", password: "wrong-Password-1") }

        try await ada.changeEmail(to: "ada@new.example", password: password)
        #expect(try await ada.reloadUser().email == "ada@example.com", "nothing changes until the link is followed")
        let mails = try server.mails(atLeast: 2)
        let link = try #require(mails.first { $0.contains("To: ada@new.example") })
        try await ada.confirmEmail(token: try #require(Self.token("verify-email", in: link)))
        let moved = try await ada.reloadUser()
        #expect(moved.email == "ada@new.example" && moved.emailVerified)
    }
}
