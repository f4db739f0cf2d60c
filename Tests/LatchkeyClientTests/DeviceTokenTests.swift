import Foundation
import LatchkeyClient
import Testing
import TestSupport

/// The device token outlives sign-out in the token store and goes with the next login, so a
/// stranger who fills the account-wide ceiling of wrong passwords does not lock this device out.
@Suite(.timeLimit(.minutes(1))) struct DeviceTokenTests {
    @Test func aDeviceThatSignedInBeforeGetsInWhileAStrangerLocksTheAccount() async throws {
        let server = try ClientTestServer(
            ["--trusted-proxies", "127.0.0.1", "--ip-rate-per-minute", "100000", "--login-max-failures", "3", "--account-max-failures", "5"],
            rateLimits: true)
        defer { server.stop() }
        let directory = NSTemporaryDirectory() + "latchkey-device-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = FileTokenStore(url: URL(fileURLWithPath: directory + "/session.json"))
        let phone = server.client(store: store)
        try await phone.signUp(email: "ada@example.com", password: ClientTestServer.password, displayName: "ada")
        #expect(await phone.signOut())
        #expect(try await store.load() == nil, "signed out")
        #expect(try await store.loadDeviceToken() != nil, "the device token stays")

        for index in 1...5 {
            let guess = try server.call(
                "POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": "wrong-password-1"], headers: ["X-Forwarded-For": "203.0.113.\(index)"])
            #expect(guess.status == 401)
        }
        let stranger = try server.call(
            "POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": ClientTestServer.password], headers: ["X-Forwarded-For": "198.51.100.7"])
        #expect(stranger.status == 429, "the account is locked for anyone without a device token")

        let user = try await phone.signIn(email: "ada@example.com", password: ClientTestServer.password)
        #expect(user.email == "ada@example.com", "the phone sent its device token and got in")
        let laptop = server.client()
        do {
            try await laptop.signIn(email: "ada@example.com", password: ClientTestServer.password)
            Issue.record("a device without a token must be refused while the account is locked")
        } catch let error as LatchkeyError {
            #expect(error.code == .tooManyAttempts)
        }
    }
}
