import Foundation
import LatchkeyClient
import Testing
import TestSupport

/// The account calls of `Latchkey` against the real server, each checked on the server's
/// side too where the client's word alone would prove nothing.
@Suite(.timeLimit(.minutes(1))) struct AccountTests {
    let password = ClientTestServer.password

    @Test func signUpSignsInAndTheAuthStateFollows() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let store = InMemoryTokenStore()
        let ada = server.client(store: store)
        var states = ada.authState.makeAsyncIterator()
        #expect(await states.next() == .some(nil), "nobody is signed in at first")

        let user = try await ada.signUp(email: "ada@example.com", password: password, displayName: "Ada.L")
        #expect(user.email == "ada@example.com" && user.displayName == "Ada.L" && !user.emailVerified && user.photoURL == nil)
        #expect(await states.next() == .some(user))
        #expect(await ada.currentUser == user)
        let stored = try #require(await store.load())
        #expect(stored.user == user)
        #expect(try await ada.accessToken() == stored.accessToken)
        #expect(try server.call("GET", "/v1/users/me", token: stored.accessToken)["id"] as? String == user.id)

        let renamed = try await ada.updateProfile(displayName: "ada.lovelace")
        #expect(renamed.displayName == "ada.lovelace")
        #expect(await states.next() == .some(renamed), "a profile change is published")
        #expect(await ada.signOut())
        #expect(await states.next() == .some(nil))
    }

    @Test func signInReloadAndProfiles() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let phone = server.client()
        let ada = try await phone.signUp(email: "ada@example.com", password: password, displayName: "ada")
        let grace = try await server.client().signUp(email: "grace@example.com", password: password, displayName: "grace")

        let laptop = server.client()
        #expect(try await laptop.signIn(email: "ADA@example.com", password: password) == ada)
        #expect(try await laptop.reloadUser() == ada)
        let photo = try #require(URL(string: "https://example.com/ada.png"))
        #expect(try await laptop.updateProfile(photoURL: .set(photo)).photoURL == photo)
        #expect(try await phone.reloadUser().photoURL == photo, "the other device sees the change")
        #expect(try await laptop.updateProfile(photoURL: .remove).photoURL == nil)
        await expectRefusal(400, .invalidArgument) { _ = try await laptop.updateProfile(photoURL: .set(URL(string: "http://example.com/a.png")!)) }
        await expectRefusal(409, .displayNameTaken) { _ = try await laptop.updateProfile(displayName: "Grace") }

        let profile = try await laptop.profile(userID: grace.id)
        #expect(profile == PublicProfile(id: grace.id, displayName: "grace", photoURL: nil))
        await expectRefusal(404, .userNotFound) { _ = try await laptop.profile(userID: "no-such-user") }

        let anonymous = server.client()
        #expect(try await anonymous.displayNameAvailability("free.name") == DisplayNameAvailability(displayName: "free.name", available: true, reason: nil))
        #expect(try await anonymous.displayNameAvailability("GRACE").reason == "TAKEN")
        #expect(try await anonymous.displayNameAvailability("admin").reason == "RESERVED")
        #expect(try await anonymous.displayNameAvailability(".ada").reason == "LEADING_OR_TRAILING_PERIOD")
        // Sent percent-encoded, these arrive as names (and fail as names), not as paths.
        #expect(try await anonymous.displayNameAvailability("..").available == false)
        #expect(try await anonymous.displayNameAvailability("a/b?c").reason == "INVALID_CHARACTERS")
        await expectNotSignedIn { _ = try await anonymous.reloadUser() }
    }

    @Test func sessionsListAndRevocationEndTheRightDevice() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let phone = server.client(userAgent: "Phone/1.0")
        let laptopStore = InMemoryTokenStore()
        let laptop = server.client(store: laptopStore, userAgent: "Laptop/2.0")
        try await phone.signUp(email: "ada@example.com", password: password, displayName: "ada")
        try await laptop.signIn(email: "ada@example.com", password: password)

        let sessions = try await phone.sessions()
        #expect(sessions.count == 2)
        let mine = try #require(sessions.first { $0.current })
        let other = try #require(sessions.first { !$0.current })
        #expect(mine.userAgent == "Phone/1.0" && other.userAgent == "Laptop/2.0")

        try await phone.revokeSession(id: other.id)
        await expectSessionEnded(.sessionRevoked) { _ = try await laptop.reloadUser() }
        #expect(await laptop.currentUser == nil, "the revoked device signed out")
        #expect(await laptopStore.load() == nil, "and forgot its tokens")
        await expectRefusal(404, .notFound) { try await phone.revokeSession(id: other.id) }

        try await phone.revokeSession(id: mine.id)
        #expect(await phone.currentUser == nil, "ending its own session signs this device out at once")
        await expectNotSignedIn { _ = try await phone.sessions() }
    }

    @Test func changingThePasswordKeepsThisDeviceAndEndsTheOthers() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let phone = server.client()
        let laptop = server.client()
        try await phone.signUp(email: "ada@example.com", password: password, displayName: "ada")
        try await laptop.signIn(email: "ada@example.com", password: password)

        await expectRefusal(401, .invalidLoginCredentials) { _ = try await phone.changePassword(currentPassword: "wrong-Password-1", newPassword: "another long passphrase") }
        let weak = await expectRefusal(400, .weakPassword) { _ = try await phone.changePassword(currentPassword: password, newPassword: "12345678") }
        #expect(weak?.detail(for: "newPassword") != nil, "the refusal names the field: \(String(describing: weak))")
        #expect(await phone.currentUser != nil, "a refused change signs nobody out")

        try await phone.changePassword(currentPassword: password, newPassword: "another long passphrase")
        #expect(try await phone.reloadUser().email == "ada@example.com", "this device goes on with its new session")
        await expectSessionEnded(.sessionRevoked) { _ = try await laptop.reloadUser() }
        try await laptop.signIn(email: "ada@example.com", password: "another long passphrase")
    }

    @Test func signingOutEndsTheSessionOnTheServer() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let store = InMemoryTokenStore()
        let ada = server.client(store: store)
        try await ada.signUp(email: "ada@example.com", password: password, displayName: "ada")
        let tokens = try #require(await store.load())

        #expect(await ada.signOut(), "the server confirmed it")
        #expect(await ada.currentUser == nil)
        #expect(await store.load() == nil)
        #expect(try server.call("GET", "/v1/users/me", token: tokens.accessToken).code == "SESSION_REVOKED")
        #expect(try server.call("POST", "/v1/auth/refresh", json: ["refreshToken": tokens.refreshToken]).code == "INVALID_REFRESH_TOKEN")
        await expectNotSignedIn { _ = try await ada.reloadUser() }
        #expect(await ada.signOut(), "signing out twice is harmless")
    }

    @Test func signingOutEverywhereEndsEveryDevice() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let phone = server.client()
        let laptop = server.client()
        try await phone.signUp(email: "ada@example.com", password: password, displayName: "ada")
        try await laptop.signIn(email: "ada@example.com", password: password)
        try await phone.signOutEverywhere()
        #expect(await phone.currentUser == nil)
        await expectSessionEnded(.sessionRevoked) { _ = try await laptop.reloadUser() }
        #expect(await laptop.currentUser == nil)
    }

    @Test func deletingTheAccountNeedsThePasswordAndFreesTheName() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let ada = server.client()
        try await ada.signUp(email: "ada@example.com", password: password, displayName: "ada")
        await expectRefusal(401, .invalidLoginCredentials) { try await ada.deleteAccount(password: "not-the-Password-9") }
        #expect(await ada.currentUser != nil)

        try await ada.deleteAccount(password: password)
        #expect(await ada.currentUser == nil)
        await expectRefusal(401, .invalidLoginCredentials) { _ = try await ada.signIn(email: "ada@example.com", password: password) }
        #expect(try await ada.displayNameAvailability("ada").available)
    }
}
