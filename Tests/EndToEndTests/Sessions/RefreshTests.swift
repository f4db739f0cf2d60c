import Foundation
import AuthCrypto
import Testing
import TestSupport

extension Accounts {
    /// `POST /v1/auth/refresh`: rotation, the reuse grace for retrying clients, theft
    /// detection after it, and sessions ending when idle.
    @Suite struct Refresh {
        @Test func refreshAnswersANewPairForTheSameSession() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let response = try server.refresh(ada.refreshToken)
            expectTokenPair(response, 200, email: "ada@example.com", displayName: "ada")
            expectNoSecrets(response, also: [ada.refreshToken])
            let renewed = try Account(response, password: ada.password)
            #expect(renewed.refreshToken != ada.refreshToken, "the refresh token rotates")
            #expect(renewed.sessionID == ada.sessionID, "the same session goes on")
            #expect(try server.me(renewed.accessToken).status == 200)
            #expect(try server.me(ada.accessToken).status == 200, "the session is not revoked by a refresh")
        }

        @Test func eachTokenOfARotationChainWorks() throws {
            let server = try AccountServer()
            defer { server.stop() }
            var account = try server.signUp("ada@example.com", "ada")
            var seen: Set<String> = [account.refreshToken]
            for step in 1...4 {
                let response = try server.refresh(account.refreshToken)
                expectTokenPair(response, 200)
                account = try Account(response, password: account.password)
                #expect(seen.insert(account.refreshToken).inserted, "step \(step) issues a token never seen before")
                #expect(try server.me(account.accessToken).status == 200, "step \(step)")
            }
            let sessions = try server.call("GET", "/v1/auth/sessions", token: account.accessToken)
            #expect((sessions["sessions"] as? [Any])?.count == 1, "rotation never opens another session: \(sessions)")
        }

        @Test func aRotatedTokenPresentedWithinTheGraceGetsANewPairForTheSameSession() throws {
            let server = try AccountServer()  // the default grace: 10 s
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let first = try server.refresh(ada.refreshToken)
            expectTokenPair(first, 200)
            // The client never saw that answer and retries with the token it still has.
            let retry = try server.refresh(ada.refreshToken)
            expectTokenPair(retry, 200)
            let retried = try Account(retry, password: ada.password)
            #expect(retried.sessionID == ada.sessionID, "the retry continues the same session")
            #expect(try server.me(retried.accessToken).status == 200)
            let refreshed = try server.refresh(retried.refreshToken)
            expectTokenPair(refreshed, 200)  // the pair from the retry can itself be refreshed
        }

        /// A thief who refreshed a stolen token twice cannot hide the theft: the token
        /// rotated two generations ago still revokes the session when its owner uses it.
        @Test(.timeLimit(.minutes(1)))
        func aTokenRetiredSeveralRotationsAgoStillRevokesTheSession() async throws {
            let server = try AccountServer(["--refresh-reuse-grace", "1"])
            defer { server.stop() }
            let stolen = try server.signUp("ada@example.com", "ada")
            var thief = try Account(try server.refresh(stolen.refreshToken), password: stolen.password)
            thief = try Account(try server.refresh(thief.refreshToken), password: stolen.password)
            try await Task.sleep(for: .seconds(2.2))

            expectProblem(try server.refresh(stolen.refreshToken), 401, "REFRESH_TOKEN_REUSED", "the owner's old token")
            expectProblem(try server.refresh(thief.refreshToken), 401, "INVALID_REFRESH_TOKEN", "the thief's chain ends with the session")
            expectProblem(try server.me(thief.accessToken), 401, "SESSION_REVOKED", "and so do its access tokens")
        }

        /// Two tasks of one app (or an app and its retry) that refresh with the same token
        /// at the same moment both succeed and both end up holding the SAME new token, so
        /// neither copy later looks like a thief and ends the session (the Supabase
        /// "Already Used" complaint).
        @Test(.timeLimit(.minutes(1)))
        func concurrentRefreshesOfOneTokenAllGetTheSameNewToken() async throws {
            let server = try AccountServer(["--refresh-reuse-grace", "1"])
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let port = server.port
            let token = ada.refreshToken
            let answers = concurrently(8) { _ -> (status: Int, token: String?) in
                guard let answer = try? call(port: port, "POST", "/v1/auth/refresh", body: .json(["refreshToken": token])) else {
                    return (-1, nil)
                }
                return (answer.status, answer["refreshToken"] as? String)
            }
            #expect(answers.map(\.status) == Array(repeating: 200, count: 8))
            let tokens = Set(answers.compactMap(\.token))
            #expect(tokens.count == 1, "every concurrent refresh answers the same token: \(tokens.count) different")
            // After the grace, the one token everybody holds still works; the old one is reuse.
            try await Task.sleep(for: .seconds(2.2))
            let shared = try #require(tokens.first)
            expectTokenPair(try server.refresh(shared), 200)
        }

        /// A retry within the grace after the session rotated twice more (a second refresh
        /// within the grace) still gets the session's latest token.
        @Test func aRetryWithinTheGraceGetsTheLatestTokenEvenAfterAnotherRotation() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let first = try Account(try server.refresh(ada.refreshToken), password: ada.password)
            let second = try Account(try server.refresh(first.refreshToken), password: ada.password)
            let retry = try server.refresh(ada.refreshToken)
            expectTokenPair(retry, 200)
            #expect(retry["refreshToken"] as? String == second.refreshToken)
        }

        /// However many times a thief rotates a stolen token, the owner's copy is reuse
        /// when it comes back: the session keeps no list that could overflow.
        @Test(.timeLimit(.minutes(1)))
        func aTokenStolenTwentyRotationsAgoStillRevokesTheSession() async throws {
            let server = try AccountServer(["--refresh-reuse-grace", "1"])
            defer { server.stop() }
            let stolen = try server.signUp("ada@example.com", "ada")
            var thief = try Account(try server.refresh(stolen.refreshToken), password: stolen.password)
            for _ in 1..<20 { thief = try Account(try server.refresh(thief.refreshToken), password: stolen.password) }
            try await Task.sleep(for: .seconds(2.2))
            expectProblem(try server.refresh(stolen.refreshToken), 401, "REFRESH_TOKEN_REUSED", "the owner's token, 20 rotations old")
            expectProblem(try server.refresh(thief.refreshToken), 401, "INVALID_REFRESH_TOKEN", "the thief's chain ends with the session")
        }

        /// A token with a valid shape but a MAC the server did not make (a guess, or one
        /// made for another generation) changes nothing.
        @Test func aForgedTokenForARealSessionChangesNothing() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let parts = ada.refreshToken.split(separator: ".").map(String.init)
            try #require(parts.count == 4)
            let mac = JWTParts.base64URL(Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
            for forged in [[parts[0], parts[1], parts[2], mac], [parts[0], parts[1], "1", parts[3]], [parts[0], parts[1], "5", mac]] {
                expectProblem(try server.refresh(forged.joined(separator: ".")), 401, "INVALID_REFRESH_TOKEN", "\(forged[2])")
            }
            expectTokenPair(try server.refresh(ada.refreshToken), 200)  // the session is untouched
        }

        /// Ada signed in with a version before this token format: her session's seed was
        /// random (kept in its row), and her client may still hold a token from before
        /// generations (of which only a SHA-256 was stored). The upgrade ends that session
        /// once: both her old refresh tokens answer INVALID_REFRESH_TOKEN and her access token
        /// SESSION_REVOKED, so her client signs in again, which works. Bob's session, made
        /// since, keeps refreshing across the upgrade.
        @Test func aSessionFromBeforeThisTokenFormatEndsAtTheUpgradeAndItsClientSignsInAgain() throws {
            var server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            let sessionID = try #require(ada.sessionID)
            server.stop()

            // The database as the earlier version left it (migrations/0017 undone): Ada's
            // session made before 0013, with a random seed and a legacy token's hash.
            let seed = (0..<32).map { _ in UInt8.random(in: 0...255) }
            let legacy = sessionID + "." + JWTParts.base64URL(Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
            let keyText = try String(contentsOfFile: server.dataDirectory + "/refresh-token-key", encoding: .utf8)
            let refreshKey = HMACKey(Array(try #require(Data(base64Encoded: keyText.trimmingCharacters(in: .whitespacesAndNewlines)))))
            let randomSeeded = "lk1.\(sessionID).0." + JWTParts.base64URL(Data(refreshKey.authenticationCode(Array("latchkey-refresh:\(sessionID):0:".utf8) + seed)))
            let stored = try StoredRows(dataDirectory: server.dataDirectory, writable: true)
            let blob = DatabaseUnderTest.isPostgreSQL ? "BYTEA" : "BLOB"
            try stored.run("ALTER TABLE sessions ADD COLUMN refresh_seed \(blob)")
            try stored.run("ALTER TABLE sessions ADD COLUMN legacy_refresh_hash \(blob)")
            try stored.run("UPDATE sessions SET refresh_seed = ?, legacy_refresh_hash = ?, created_at = created_at - 60 WHERE id = ?",
                           seed, SHA256.hash(legacy.utf8), sessionID)
            try stored.run("DELETE FROM schema_migrations WHERE version = 17")

            server = try server.restarted()
            expectProblem(try server.refresh(randomSeeded), 401, "INVALID_REFRESH_TOKEN", "the token her session's random seed made")
            expectProblem(try server.refresh(legacy), 401, "INVALID_REFRESH_TOKEN", "a token from before generations")
            expectProblem(try server.me(ada.accessToken), 401, "SESSION_REVOKED", "her session ended at the upgrade")
            let again = try server.logIn("ada@example.com")
            expectTokenPair(try server.refresh(again.refreshToken), 200)
            expectTokenPair(try server.refresh(bob.refreshToken), 200)
        }

        @Test(.timeLimit(.minutes(2)))
        func aRotatedTokenPresentedAfterTheGraceRevokesTheWholeSession() async throws {
            let server = try AccountServer(["--refresh-reuse-grace", "1"])
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn("ada@example.com", userAgent: "Phone/1")
            let rotated = try Account(try server.refresh(ada.refreshToken), password: ada.password)

            try await Task.sleep(for: .seconds(3))
            let stolen = try server.refresh(ada.refreshToken)
            expectProblem(stolen, 401, "REFRESH_TOKEN_REUSED")
            #expect(stolen["accessToken"] == nil && stolen["refreshToken"] == nil)

            expectProblem(try server.me(rotated.accessToken), 401, "SESSION_REVOKED", "the newest access token of the session")
            expectProblem(try server.me(ada.accessToken), 401, "SESSION_REVOKED", "the older access token of the session")
            let latest = try server.refresh(rotated.refreshToken)
            expectProblem(latest, 401, nil, "the newest refresh token of the session")
            #expect(["INVALID_REFRESH_TOKEN", "REFRESH_TOKEN_REUSED"].contains(latest.code ?? ""), "\(latest)")

            #expect(try server.me(phone.accessToken).status == 200, "another session of the user is untouched")
            expectTokenPair(try server.refresh(phone.refreshToken), 200)
        }

        @Test func refreshTokensThatAreNotCurrentAreRefused() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let path = "/v1/auth/refresh"
            let random = JWTParts.base64URL(Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
            try server.run([
                Scenario("a random token", "POST", path, json: ["refreshToken": random], status: 401, code: "INVALID_REFRESH_TOKEN"),
                Scenario("an empty token", "POST", path, json: ["refreshToken": ""], status: 401, code: "INVALID_REFRESH_TOKEN"),
                Scenario("the access token", "POST", path, json: ["refreshToken": ada.accessToken], status: 401, code: "INVALID_REFRESH_TOKEN"),
                Scenario("the token with a character changed", "POST", path,
                         json: ["refreshToken": (ada.refreshToken.hasPrefix("A") ? "B" : "A") + String(ada.refreshToken.dropFirst())],
                         status: 401, code: "INVALID_REFRESH_TOKEN"),
                Scenario("refreshToken missing", "POST", path, json: [:], status: 400, code: "INVALID_ARGUMENT", field: "refreshToken"),
                Scenario("refreshToken of the wrong type", "POST", path, json: ["refreshToken": 7], status: 400, code: "INVALID_ARGUMENT", field: "refreshToken"),
                Scenario("not JSON", "POST", path, raw: ("refreshToken", "application/json"), status: 400, code: "MALFORMED_JSON"),
                // The nesting limit (32) counts the body's own object: one array fewer is JSON
                // of the wrong type, one more is not JSON (the body is read once when flat).
                Scenario("nested 32 deep", "POST", path, raw: (#"{"refreshToken":"# + String(repeating: "[", count: 31) + String(repeating: "]", count: 31) + "}", "application/json"),
                         status: 400, code: "INVALID_ARGUMENT", field: "refreshToken"),
                Scenario("nested 33 deep", "POST", path, raw: (#"{"refreshToken":"# + String(repeating: "[", count: 32) + String(repeating: "]", count: 32) + "}", "application/json"),
                         status: 400, code: "MALFORMED_JSON"),
                Scenario("text/plain", "POST", path, raw: (#"{"refreshToken":"x"}"#, "text/plain"), status: 415, code: "UNSUPPORTED_MEDIA_TYPE"),
            ])
            expectTokenPair(try server.refresh(ada.refreshToken), 200)  // the real token still works after all that
        }

        /// Sleeps block the test's own thread (not `Task.sleep`): a waking task would need a
        /// free thread of the shared pool, which other end-to-end tests hold with socket I/O.
        @Test func aSessionEndsAfterTheIdleTimeoutWithoutARefresh() throws {
            // Times are whole seconds: a 6 s timeout, a refresh at 3 s and a check at 7.5 s
            // leave at least half a second of margin either way.
            let server = try AccountServer(["--session-idle-timeout", "6"])
            defer { server.stop() }
            let idle = try server.signUp("ada@example.com", "ada")
            var active = try server.logIn("ada@example.com")
            let started = Date()

            usleep(3_000_000)
            active = try Account(try server.refresh(active.refreshToken), password: active.password)

            usleep(UInt32(max(0.1, 7.5 - Date().timeIntervalSince(started)) * 1_000_000))
            expectProblem(try server.refresh(idle.refreshToken), 401, "INVALID_REFRESH_TOKEN", "idle for more than 6 s")
            expectTokenPair(try server.refresh(active.refreshToken), 200)  // refreshed 4.5 s ago
        }

        @Test func aSessionEndsAtItsMaximumLifetimeHoweverMuchItIsUsed() throws {
            // Whole seconds again: a 4 s lifetime, used at once, ended by 6 s.
            let server = try AccountServer(["--session-max-lifetime", "4"])
            defer { server.stop() }
            let started = Date()
            var ada = try server.signUp("ada@example.com", "ada")
            ada = try Account(try server.refresh(ada.refreshToken), password: ada.password)
            #expect(try server.me(ada.accessToken).status == 200)
            usleep(UInt32(max(0.1, 6 - Date().timeIntervalSince(started)) * 1_000_000))
            expectProblem(try server.refresh(ada.refreshToken), 401, "INVALID_REFRESH_TOKEN", "past the maximum lifetime")
            expectProblem(try server.me(ada.accessToken), 401, "SESSION_REVOKED", "its access token ends with it")
        }
    }
}
