import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `GET /v1/users/{id}`: the PublicProfile, and nothing private.
    @Suite struct PublicProfile {
        @Test func anotherUserSeesOnlyThePublicProfile() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "Ada.L")
            let bob = try server.signUp("bob@example.com", "bob")
            _ = try server.call("PATCH", "/v1/users/me", json: ["photoURL": "https://cdn.example.com/ada.png"], token: ada.accessToken)

            let response = try server.call("GET", "/v1/users/\(ada.id)", token: bob.accessToken)
            #expect(response.status == 200, "\(response)")
            expectCommonHeaders(response)
            #expect(Set(response.json?.keys.map { $0 } ?? []) == ["id", "displayName", "photoURL"], "PublicProfile has exactly its fields: \(response)")
            #expect(response["id"] as? String == ada.id)
            #expect(response["displayName"] as? String == "Ada.L")
            #expect(response["photoURL"] as? String == "https://cdn.example.com/ada.png")
            #expect(!response.text.contains("ada@example.com"), "no email in a public profile")
            expectNoSecrets(response)

            let own = try server.call("GET", "/v1/users/\(ada.id)", token: ada.accessToken)
            #expect(own.status == 200 && Set(own.json?.keys.map { $0 } ?? []) == ["id", "displayName", "photoURL"], "\(own)")
        }

        @Test func theProfileFollowsRenamesAndPhotoChanges() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            #expect(try server.call("GET", "/v1/users/\(ada.id)", token: bob.accessToken)["photoURL"] is NSNull)
            _ = try server.call("PATCH", "/v1/users/me", json: ["displayName": "Ada.Renamed"], token: ada.accessToken)
            #expect(try server.call("GET", "/v1/users/\(ada.id)", token: bob.accessToken)["displayName"] as? String == "Ada.Renamed")
        }

        @Test func unknownUsersAndMissingTokensAreRefused() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            try server.run([
                Scenario("an unknown id", "GET", "/v1/users/0123456789abcdef0123456789abcdef", token: ada.accessToken, status: 404, code: "USER_NOT_FOUND"),
                Scenario("an id that cannot exist", "GET", "/v1/users/not-an-id", token: ada.accessToken, status: 404, code: "USER_NOT_FOUND"),
                Scenario("no token", "GET", "/v1/users/\(ada.id)", status: 401, code: "UNAUTHENTICATED", excludes: ["ada@example.com"]),
            ])
        }
    }
}
