import Foundation
import Testing
import TestSupport

extension Identities {
    /// Sign in with Apple's server side through the real routes: the authorization code of a
    /// sign-in or link exchanged at the fake Apple (served under the one `appleBaseURL`
    /// beside Apple's keys, as appleid.apple.com serves them) and Apple's refresh token kept
    /// sealed; account deletion and unlinking revoke it at Apple.
    @Suite(.serialized) struct AppleServerSide {
        /// The fake's code convention: Apple's answer names the user before the "~".
        static func code(for subject: String, _ tag: String = "c") -> String { "\(subject)~\(tag)" }

        func appleSignIn(_ idp: IdentityServer, subject: String, code: String?, aud: String = IdentityServer.appleClientID) throws -> JSONResponse {
            let token = try idp.providers.mint("apple", idp.providers.claims("apple", subject: subject, ["aud": aud]))
            return try idp.signIn("apple", token, extra: code.map { ["authorizationCode": $0] } ?? [:])
        }

        /// The account's sealed token for `clientID`, if it has one.
        func sealedToken(of userID: String, clientID: String = IdentityServer.appleClientID, _ idp: IdentityServer) throws -> [UInt8]? {
            try StoredRows(idp.server).row("SELECT sealed_token FROM apple_refresh_tokens WHERE user_id = ? AND client_id = ?", userID, clientID) {
                $0.blob(at: 0)
            } ?? nil
        }

        func tokenCount(of userID: String, _ idp: IdentityServer) throws -> Int {
            try StoredRows(idp.server).count("SELECT count(*) FROM apple_refresh_tokens WHERE user_id = ?", userID)
        }

        func linkApple(_ idp: IdentityServer, subject: String, code: String, as account: Account) throws {
            let token = try idp.providers.mint("apple", idp.providers.claims("apple", subject: subject))
            let linked = try idp.server.call("POST", "/v1/auth/identities/apple", json: ["idToken": token, "authorizationCode": code], token: account.accessToken)
            #expect(linked.status == 201, "\(linked)")
        }

        @Test func theFirstSignInWithACodeKeepsApplesRefreshTokenSealed() throws {
            let idp = try IdentityServer(appleServer: true)
            let records = try #require(idp.providers.appleRecords)
            let response = try appleSignIn(idp, subject: "001.ada", code: Self.code(for: "001.ada"))
            #expect(response.status == 201, "\(response)")
            let userID = try #require((response["user"] as? [String: Any])?["id"] as? String)
            let exchanges = records.of("exchange")
            #expect(exchanges.map { $0["client_id"] } == [IdentityServer.appleClientID], "exchanged for the client id the token's aud named")
            #expect(records.of("refused").isEmpty, "the client secret checked out: \(records.of("refused"))")
            #expect(try tokenCount(of: userID, idp) == 1)
            let token = Array("rt.\(Self.code(for: "001.ada"))".utf8)
            let sealed = try #require(try sealedToken(of: userID, idp))
            #expect(sealed.count > token.count)
            #expect(!(0...(sealed.count - token.count)).contains { Array(sealed[$0..<($0 + token.count)]) == token }, "the database holds the token sealed")

            // The web (services id) sign-in of the same user: its code is for that client id.
            let web = try appleSignIn(idp, subject: "001.ada", code: Self.code(for: "001.ada", "web"), aud: IdentityServer.appleWebClientID)
            #expect(web.status == 200, "\(web)")
            #expect(try tokenCount(of: userID, idp) == 2)
            #expect(try sealedToken(of: userID, clientID: IdentityServer.appleWebClientID, idp) != nil)
        }

        /// Mallory holds an authorization code Apple issued for Alice (a code leaked from
        /// Alice's device or a log). She signs in with her own Apple ID token and hands
        /// over Alice's code, hoping Latchkey parks Alice's authorization on Mallory's
        /// account, to be revoked (Alice's Sign in with Apple for the app ended) the day
        /// Mallory deletes it. Apple's answer names Alice, not the identity that signed in:
        /// nothing is kept, and Mallory's sign-in goes ahead as if she had sent no code.
        @Test func aCodeIssuedToAnotherAppleUserIsNotKept() throws {
            let idp = try IdentityServer(appleServer: true)
            let records = try #require(idp.providers.appleRecords)
            let response = try appleSignIn(idp, subject: "001.mallory", code: Self.code(for: "001.alice"))
            #expect(response.status == 201, "the sign-in itself succeeds: \(response)")
            let mallory = try #require((response["user"] as? [String: Any])?["id"] as? String)
            #expect(records.of("exchange").count == 1, "Apple was asked")
            #expect(try tokenCount(of: mallory, idp) == 0, "another user's token is not kept")
            #expect(idp.server.process.waitForOutput(containing: "another user"), "the log says why (written by the log thread, maybe after the answer)")
            #expect(!idp.server.process.output.contains("rt.001.alice"), "never the token")
        }

        /// Apple refuses the code (spent, expired, or Apple's error): the user is signed in
        /// anyway, the log says why (without the code), and nothing is kept.
        @Test func aFailedExchangeDoesNotFailTheSignIn() throws {
            let idp = try IdentityServer(appleServer: true)
            let response = try appleSignIn(idp, subject: "001.grace", code: "odd-error")
            #expect(response.status == 201, "\(response)")
            let userID = try #require((response["user"] as? [String: Any])?["id"] as? String)
            #expect(try tokenCount(of: userID, idp) == 0)
            #expect(idp.server.process.waitForOutput(containing: "Apple answered 400 unrecognised"), "\(idp.server.process.output)")
        }

        /// Without appleTeamID, appleKeyID and appleKeyFile, Sign in with Apple works and the
        /// code is ignored.
        @Test func withoutApplesServerSettingsTheCodeIsIgnored() throws {
            let idp = try IdentityServer()
            let response = try appleSignIn(idp, subject: "001.lin", code: Self.code(for: "001.lin"))
            #expect(response.status == 201, "\(response)")
            #expect(try StoredRows(idp.server).row("SELECT count(*) FROM apple_refresh_tokens") { $0.int(at: 0) } == 0)
        }

        /// Ada linked Apple from her settings (her app handed over the code), then deletes
        /// her account: Apple receives the revocation of that very token.
        @Test func deletingTheAccountRevokesItsAppleTokenAtApple() throws {
            let idp = try IdentityServer(appleServer: true)
            let records = try #require(idp.providers.appleRecords)
            let ada = try idp.server.signUp("ada@example.com", "ada")
            try linkApple(idp, subject: "001.ada", code: Self.code(for: "001.ada"), as: ada)
            #expect(try tokenCount(of: ada.id, idp) == 1)
            let deleted = try idp.server.call("DELETE", "/v1/users/me", json: ["password": ada.password], token: ada.accessToken)
            #expect(deleted.status == 204, "\(deleted)")
            let revocations = records.waitFor("revoke")
            #expect(revocations.map { $0["token"] } == ["rt.\(Self.code(for: "001.ada"))"])
            #expect(revocations.first?["client_id"] == IdentityServer.appleClientID)
        }

        /// Unlinking Apple ends the app's authorization at Apple too: its token is revoked.
        @Test func unlinkingAppleRevokesItsToken() throws {
            let idp = try IdentityServer(appleServer: true)
            let records = try #require(idp.providers.appleRecords)
            let bob = try idp.server.signUp("bob@example.com", "bob")
            try linkApple(idp, subject: "001.bob", code: Self.code(for: "001.bob"), as: bob)
            #expect(try idp.server.call("DELETE", "/v1/auth/identities/apple", token: bob.accessToken).status == 204)
            #expect(records.waitFor("revoke").map { $0["token"] } == ["rt.\(Self.code(for: "001.bob"))"])
            #expect(try tokenCount(of: bob.id, idp) == 0)
            #expect(try idp.server.me(bob.accessToken).status == 200, "the account stays")
        }
    }
}
