import Foundation
import Testing
import TestSupport

extension Accounts {
    /// OWASP's device cookies: a stranger's guesses from many addresses fill the account-wide
    /// ceiling, yet the owner's own device, which once logged in, still gets in, counted
    /// against itself alone. Addresses are simulated as in `PasswordGuessing`.
    @Suite struct DeviceTokens {
        static func login(_ server: AccountServer, _ password: String, device: String?, from address: String) throws -> JSONResponse {
            var body: [String: Any] = ["email": "ada@example.com", "password": password]
            if let device { body["deviceToken"] = device }
            return try server.call("POST", "/v1/auth/login", json: body, headers: ["X-Forwarded-For": address])
        }

        /// 5 guesses from 5 addresses: the account-wide ceiling (5 here, 100 by default).
        static func strangerGuesses(_ server: AccountServer) throws {
            for index in 1...5 {
                expectProblem(try login(server, "wrong-password-1", device: nil, from: "203.0.113.\(index)"), 401, "INVALID_LOGIN_CREDENTIALS")
            }
        }

        @Test func theOwnersDeviceGetsInWhileAStrangerHoldsTheAccountLocked() throws {
            let server = try PasswordGuessing.server(perAddress: 3, perAccount: 5)
            defer { server.stop() }
            let signup = try server.call("POST", "/v1/auth/signup", json: ["email": "ada@example.com", "password": AccountServer.password, "displayName": "ada"])
            #expect(signup.status == 201)
            let phone = try #require(signup["deviceToken"] as? String, "signup's TokenPair carries a device token")

            try Self.strangerGuesses(server)
            expectProblem(try Self.login(server, AccountServer.password, device: nil, from: "198.51.100.4"),
                          429, "TOO_MANY_ATTEMPTS_TRY_LATER", "without a device token the owner is locked out too")
            let owner = try Self.login(server, AccountServer.password, device: phone, from: "198.51.100.4")
            expectTokenPair(owner, 200)
            #expect(owner["deviceToken"] as? String == phone, "the device keeps its token")

            // The stranger cannot borrow the exemption with a made-up or another account's token.
            let bob = try server.call("POST", "/v1/auth/signup", json: ["email": "bob@example.com", "password": AccountServer.password, "displayName": "bob"])
            let bobsDevice = try #require(bob["deviceToken"] as? String)
            for forged in [bobsDevice, String(phone.dropLast(2)) + "AA", "not-a-token"] {
                expectProblem(try Self.login(server, AccountServer.password, device: forged, from: "203.0.113.9"), 429, "TOO_MANY_ATTEMPTS_TRY_LATER")
            }
        }

        @Test func aDevicesWrongPasswordsCountAgainstThatDeviceAlone() throws {
            let server = try PasswordGuessing.server(perAddress: 3, perAccount: 5)
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            let phone = try #require(try Self.login(server, AccountServer.password, device: nil, from: "198.51.100.4")["deviceToken"] as? String)
            for _ in 0..<3 {
                expectProblem(try Self.login(server, "wrong-password-1", device: phone, from: "198.51.100.4"), 401, "INVALID_LOGIN_CREDENTIALS")
            }
            expectProblem(try Self.login(server, AccountServer.password, device: phone, from: "198.51.100.4"), 429, "TOO_MANY_ATTEMPTS_TRY_LATER",
                          "3 failures for the device (loginMaxFailures)")
            // The device's failures did not count for its address or the account.
            expectTokenPair(try Self.login(server, AccountServer.password, device: nil, from: "198.51.100.4"), 200)
        }

        /// A password change voids every device token of the account: one stolen with the
        /// old password no longer buys the exemption.
        @Test func aNewPasswordVoidsTheOldDeviceTokens() throws {
            let server = try PasswordGuessing.server(perAddress: 3, perAccount: 5)
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let old = try #require(try Self.login(server, AccountServer.password, device: nil, from: "198.51.100.4")["deviceToken"] as? String)
            let newPassword = "Marmalade-Orbit-77"
            let changed = try server.call(
                "POST", "/v1/auth/password", json: ["currentPassword": AccountServer.password, "newPassword": newPassword], token: ada.accessToken,
                headers: ["X-Forwarded-For": "198.51.100.4"])
            let fresh = try #require(changed["deviceToken"] as? String, "the password change's TokenPair carries a new one")
            try Self.strangerGuesses(server)
            expectProblem(try Self.login(server, newPassword, device: old, from: "198.51.100.4"), 429, "TOO_MANY_ATTEMPTS_TRY_LATER")
            expectTokenPair(try Self.login(server, newPassword, device: fresh, from: "198.51.100.4"), 200)
        }
    }
}
