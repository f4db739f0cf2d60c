import Foundation
import LatchkeyClient
import Testing
import TestSupport

/// The client's provider calls against the real server and a fake Apple and Google: the
/// test plays the platform's sign-in SDK, handing over the ID tokens the fake providers mint.
@Suite(.timeLimit(.minutes(1))) struct IdentityTests {
    let password = ClientTestServer.password

    /// Sign in with Apple: the credential's pieces, the raw nonce whose hash Apple put in
    /// the token, and the name Apple shares once (a suggestion: no display name is claimed).
    @Test func signInWithAppleMakesAnAccountThenFindsIt() async throws {
        let fake = try ProviderTestServer()
        defer { fake.stop() }
        let phone = fake.server.client()
        let nonce = "raw-nonce-\(UUID().uuidString)"
        let token = try fake.token("apple", subject: "001.ada", email: "ada@privaterelay.appleid.com", ["nonce": try ProviderTestServer.appleNonce(nonce)])
        let made = try await phone.signIn(withApple: .init(identityToken: token, rawNonce: nonce, givenName: "Ada", familyName: "Lovelace"))
        #expect(made.email == "ada@privaterelay.appleid.com" && made.emailVerified && made.displayName == nil, "\(made)")
        #expect(await phone.currentUser == made)

        await phone.signOut()
        let again = try await phone.signIn(withApple: .init(identityToken: try fake.token("apple", subject: "001.ada")))
        #expect(again.id == made.id, "the same Apple subject finds the same account")
        let list = try await phone.identities()
        #expect(list.hasPassword == false)
        #expect(list.identities.map(\.provider) == ["apple"] && list.identities.first?.subject == "001.ada")
    }

    @Test func googleAndAnyProviderByNameSignIn() async throws {
        let fake = try ProviderTestServer()
        defer { fake.stop() }
        let phone = fake.server.client()
        let byGoogle = try await phone.signIn(withGoogleIDToken: try fake.token("google", subject: "g-1", ["nonce": "n-1"]), nonce: "n-1")
        await phone.signOut()
        let byName = try await phone.signIn(provider: "google", idToken: try fake.token("google", subject: "g-1"))
        #expect(byName.id == byGoogle.id)
    }

    /// Each refusal of a provider sign-in reaches the app as its code (and reason), and
    /// signs nobody in.
    @Test func refusedProviderSignInsAreTypedErrors() async throws {
        let fake = try ProviderTestServer()
        defer { fake.stop() }
        let phone = fake.server.client()
        let replayed = try fake.token("google", subject: "g-victim", ["nonce": "victims-nonce"])
        let nonce = await expectRefusal(401, .idpTokenInvalid) { try await phone.signIn(withGoogleIDToken: replayed, nonce: "attackers-nonce") }
        #expect(nonce?.reason == "NONCE")
        let elsewhere = try fake.token("google", subject: "g-1", ["aud": "another-app"])
        let audience = await expectRefusal(401, .idpTokenInvalid) { try await phone.signIn(withGoogleIDToken: elsewhere) }
        #expect(audience?.reason == "AUDIENCE")
        let google = try fake.token("google", subject: "g-1")
        await expectRefusal(404, .notFound) { try await phone.signIn(provider: "okta", idToken: google) }

        // An account with this address whose owner never verified it: no link.
        let squatter = fake.server.client()
        try await squatter.signUp(email: "ada@example.com", password: password, displayName: "ada")
        let ada = try fake.token("google", subject: "g-ada", email: "ada@example.com")
        await expectRefusal(409, .accountExists) { try await phone.signIn(withGoogleIDToken: ada) }
        #expect(await phone.currentUser == nil)
    }

    /// Linking from the app's settings: the identities list, `IDENTITY_IN_USE`, unlinking,
    /// and `LAST_SIGN_IN_METHOD` for the account's only way in.
    @Test func aSignedInUserLinksAndUnlinksProviders() async throws {
        let fake = try ProviderTestServer()
        defer { fake.stop() }
        let phone = fake.server.client()
        let ada = try await phone.signUp(email: "ada@example.com", password: password, displayName: "ada")
        let google = try await phone.link(provider: "google", idToken: try fake.token("google", subject: "g-ada"))
        #expect(google.provider == "google" && google.subject == "g-ada")
        let apple = try await phone.link(apple: .init(identityToken: try fake.token("apple", subject: "001.ada", email: "relay@privaterelay.appleid.com")))
        #expect(apple.email == "relay@privaterelay.appleid.com")
        let list = try await phone.identities()
        #expect(list.hasPassword && Set(list.identities.map(\.provider)) == ["apple", "google"])

        let other = fake.server.client()
        try await other.signUp(email: "grace@example.com", password: password, displayName: "grace")
        let adas = try fake.token("google", subject: "g-ada")
        await expectRefusal(409, .identityInUse) { try await other.link(provider: "google", idToken: adas) }

        try await phone.unlink(provider: "google")
        #expect(try await phone.identities().identities.map(\.provider) == ["apple"])
        await expectRefusal(404, .notFound) { try await phone.unlink(provider: "google") }
        let signedIn = try await fake.server.client().signIn(withApple: .init(identityToken: try fake.token("apple", subject: "001.ada")))
        #expect(signedIn.id == ada.id)

        let only = fake.server.client()
        try await only.signIn(withGoogleIDToken: try fake.token("google", subject: "g-only"))
        await expectRefusal(409, .lastSignInMethod) { try await only.unlink(provider: "google") }
    }

    /// An account a provider made has no password: `deleteAccount()` sends none, right
    /// after the sign-in, and signs out here.
    @Test func aPasswordlessAccountIsDeletedWithoutAPassword() async throws {
        let fake = try ProviderTestServer()
        defer { fake.stop() }
        let phone = fake.server.client()
        let made = try await phone.signIn(withApple: .init(identityToken: try fake.token("apple", subject: "001.gone")))
        try await phone.deleteAccount()
        #expect(await phone.currentUser == nil)
        let again = try await phone.signIn(withApple: .init(identityToken: try fake.token("apple", subject: "001.gone")))
        #expect(again.id != made.id, "the old account is gone: the same subject makes a new one")

        // An account with a password still needs it.
        let ada = fake.server.client()
        try await ada.signUp(email: "ada@example.com", password: password, displayName: "ada")
        let missing = await expectRefusal(400, .invalidArgument) { try await ada.deleteAccount() }
        #expect(missing?.field == "password")
        #expect(await ada.currentUser != nil)
    }
}
