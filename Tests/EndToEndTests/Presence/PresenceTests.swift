import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `PUT /v1/presence`, `GET /v1/presence/{userId}` and the batch read, with the
    /// presence timeout (streams: `PresenceStreams`).
    @Suite struct PresenceRecords {
        static func put(_ server: AccountServer, _ status: String, token: String?) throws -> JSONResponse {
            try server.call("PUT", "/v1/presence", json: ["status": status], token: token)
        }

        @Test func eachUserSetsTheirOwnAndAnyoneSignedInReadsIt() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            let fresh = try server.call("GET", "/v1/presence/\(ada.id)", token: bob.accessToken)
            #expect(fresh.status == 200)
            #expect(fresh["userId"] as? String == ada.id && fresh["status"] as? String == "online", "signup leaves the user online")

            let away = try Self.put(server, "away", token: ada.accessToken)
            #expect(away.status == 200)
            #expect(away["userId"] as? String == ada.id && away["status"] as? String == "away")
            let lastSeen = try #require(away["lastSeen"] as? String)
            #expect(try #require(ISO8601DateFormatter().date(from: lastSeen)).timeIntervalSinceNow > -10, "the server's time")
            #expect(try server.call("GET", "/v1/presence/\(ada.id)", token: bob.accessToken)["status"] as? String == "away")

            let batch = try server.call("GET", "/v1/presence?userIds=\(bob.id),nobody,\(ada.id)", token: ada.accessToken)
            #expect(batch.status == 200)
            let presences = try #require(batch["presences"] as? [[String: Any]])
            #expect(presences.map { $0["userId"] as? String } == [bob.id, ada.id], "unknown ids are left out, the order kept")
            #expect(presences.map { $0["status"] as? String } == ["online", "away"])
        }

        @Test func badRequestsSayWhatIsWrong() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            for status in ["busy", "Online", "", "online "] {
                expectProblem(try Self.put(server, status, token: ada.accessToken), 400, "INVALID_ARGUMENT", "status \(status)")
            }
            expectProblem(try server.call("PUT", "/v1/presence", json: ["status": 1], token: ada.accessToken), 400, "INVALID_ARGUMENT")
            expectProblem(try Self.put(server, "online", token: nil), 401, "UNAUTHENTICATED")
            expectProblem(try server.call("GET", "/v1/presence/\(ada.id)"), 401, "UNAUTHENTICATED")
            expectProblem(try server.call("GET", "/v1/presence/nobody", token: ada.accessToken), 404, "USER_NOT_FOUND")
            let tooMany = (0...100).map { "id\($0)" }.joined(separator: ",")  // 101 ids
            for query in ["", "?userIds=", "?userIds=a,,b", "?userIds=\(tooMany)"] {
                expectProblem(try server.call("GET", "/v1/presence\(query)", token: ada.accessToken), 400, "INVALID_ARGUMENT", "query \(query)")
            }
        }

        /// schemathesis found 101 ids accepted (200) because each began with an emoji
        /// modifier, which joined the comma before it into one Character: the list was
        /// split on Characters and read as a single unknown id.
        @Test func aCommaSplitsTheIdsWhateverFollowsIt() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let modified = (0...100).map { "%F0%9F%8F%BBid\($0)" }.joined(separator: ",")  // 101 ids, each after U+1F3FB
            for path in ["/v1/presence", "/v1/presence/stream"] {
                expectProblem(try server.call("GET", "\(path)?userIds=\(modified)", token: ada.accessToken), 400, "INVALID_ARGUMENT",
                              field: "userIds", "101 ids at \(path)")
            }
            let combining = try server.call("GET", "/v1/presence?userIds=\(ada.id),%CC%81x", token: ada.accessToken)  // U+0301 after the comma
            #expect(combining.status == 200)
            #expect((combining["presences"] as? [[String: Any]])?.map { $0["userId"] as? String } == [ada.id],
                    "the id before a comma that a combining mark follows is read on its own: \(combining)")
        }

        @Test func silencePastTheTimeoutReadsAsOfflineWithTheLastUpdate() throws {
            let server = try AccountServer(["--presence-timeout", "1"])
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let online = try Self.put(server, "online", token: ada.accessToken)
            usleep(2_300_000)
            let later = try server.call("GET", "/v1/presence/\(ada.id)", token: ada.accessToken)
            #expect(later["status"] as? String == "offline")
            #expect(later["lastSeen"] as? String == online["lastSeen"] as? String)
            #expect(try Self.put(server, "away", token: ada.accessToken)["status"] as? String == "away", "a new update counts again")
        }

        @Test func aDeletedAccountHasNoPresence() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            #expect(try server.call("DELETE", "/v1/users/me", json: ["password": AccountServer.password], token: ada.accessToken).status == 204)
            expectProblem(try server.call("GET", "/v1/presence/\(ada.id)", token: bob.accessToken), 404, "USER_NOT_FOUND")
        }
    }
}
