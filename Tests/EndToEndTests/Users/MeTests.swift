import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `GET`, `PATCH` and `DELETE /v1/users/me`: the private profile, renames that release
    /// the old name at once, the photoURL rules, and account deletion that removes
    /// everything and revokes every session at once.
    @Suite struct Me {
        @Test func meAnswersTheUserPrivately() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "Ada.L")
            let response = try server.me(ada.accessToken)
            expectPrivateJSON(response, 200)
            expectUser(response.json, email: "ada@example.com", displayName: "Ada.L")
            expectNoSecrets(response, also: [ada.password, ada.refreshToken])
            #expect(response["id"] as? String == ada.id)
            expectProblem(try server.me(nil), 401, "UNAUTHENTICATED")
        }

        @Test func renamingClaimsTheNewNameAndReleasesTheOldOneAtOnce() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "Ada.Old")
            let response = try server.call("PATCH", "/v1/users/me", json: ["displayName": "Ada.New"], token: ada.accessToken)
            expectPrivateJSON(response, 200)
            expectUser(response.json, email: "ada@example.com", displayName: "Ada.New")
            #expect(try server.me(ada.accessToken)["displayName"] as? String == "Ada.New")

            let old = try server.availability("ada.old")
            #expect(old["available"] as? Bool == true, "the old name is free at once: \(old)")
            let new = try server.availability("ADA.NEW")
            #expect(new["available"] as? Bool == false && new["reason"] as? String == "TAKEN", "\(new)")
            let bob = try server.signUp("bob@example.com", "ADA.OLD")
            #expect(bob.displayName == "ADA.OLD", "someone else takes the released name in their own spelling")
            expectProblem(try server.call("POST", "/v1/auth/signup", json: ["email": "eve@example.com", "password": AccountServer.password, "displayName": "ada.new"]),
                          409, "DISPLAY_NAME_TAKEN", field: "displayName")
        }

        @Test func changingOnlyTheCaseOfTheOwnNameIsAllowed() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada.l")
            let response = try server.call("PATCH", "/v1/users/me", json: ["displayName": "Ada.L"], token: ada.accessToken)
            expectPrivateJSON(response, 200)
            #expect(response["displayName"] as? String == "Ada.L", "\(response)")
            #expect(try server.availability("ADA.L")["available"] as? Bool == false)
        }

        @Test func everyPatchRowAnswersItsCode() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            try server.signUp("bob@example.com", "Bob.Taken")
            let token = ada.accessToken
            let path = "/v1/users/me"
            let longest = "https://example.com/" + String(repeating: "p", count: 2048 - 20)
            func row(_ name: String, _ json: [String: Any], _ status: Int, _ code: String? = nil, field: String? = nil, reason: String? = nil,
                     contains: [String] = []) -> Scenario {
                Scenario(name, "PATCH", path, token: token, json: json, status: status, code: code, field: field, reason: reason, contains: contains)
            }
            let responses = try server.run([
                row("an empty patch", [:], 200),
                row("a name taken in another case", ["displayName": "bob.taken"], 409, "DISPLAY_NAME_TAKEN", field: "displayName"),
                row("a reserved name", ["displayName": "Moderator"], 409, "DISPLAY_NAME_TAKEN", field: "displayName", reason: "RESERVED"),
                row("a name too short", ["displayName": "ab"], 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "TOO_SHORT"),
                row("a name too long", ["displayName": String(repeating: "n", count: 31)], 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "TOO_LONG"),
                row("a name with a hyphen", ["displayName": "ada-l"], 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "INVALID_CHARACTERS"),
                row("a name with a leading period", ["displayName": ".ada"], 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "LEADING_OR_TRAILING_PERIOD"),
                row("a name with two periods", ["displayName": "a..da"], 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "CONSECUTIVE_PERIODS"),
                row("a name of the wrong type", ["displayName": 42], 400, "INVALID_ARGUMENT", field: "displayName"),
                row("a null name (a name cannot be removed)", ["displayName": NSNull()], 400, "INVALID_ARGUMENT", field: "displayName"),
                row("an https photo", ["photoURL": "https://cdn.example.com/ada.jpg"], 200),
                row("a photo of 2048 characters", ["photoURL": longest], 200),
                row("a photo of 2049 characters", ["photoURL": longest + "q"], 400, "INVALID_ARGUMENT", field: "photoURL"),
                row("an http photo", ["photoURL": "http://cdn.example.com/ada.jpg"], 400, "INVALID_ARGUMENT", field: "photoURL"),
                row("an ftp photo", ["photoURL": "ftp://cdn.example.com/ada.jpg"], 400, "INVALID_ARGUMENT", field: "photoURL"),
                row("a javascript photo", ["photoURL": "javascript:alert(1)"], 400, "INVALID_ARGUMENT", field: "photoURL"),
                row("a photo that is not a URL", ["photoURL": "just some words"], 400, "INVALID_ARGUMENT", field: "photoURL"),
                row("a photo of the wrong type", ["photoURL": 7], 400, "INVALID_ARGUMENT", field: "photoURL"),
                row("name and photo together", ["displayName": "Ada.Two", "photoURL": "https://cdn.example.com/two.png"], 200),
                row("a null photo", ["photoURL": NSNull()], 200),
                Scenario("text/plain", "PATCH", path, token: token, raw: (#"{"displayName":"x_y_z"}"#, "text/plain"), status: 415, code: "UNSUPPORTED_MEDIA_TYPE"),
                Scenario("not JSON", "PATCH", path, token: token, raw: ("{{", "application/json"), status: 400, code: "MALFORMED_JSON"),
                Scenario("no token", "PATCH", path, json: ["displayName": "x_y_z"], status: 401, code: "UNAUTHENTICATED"),
            ])
            // Slashes may be escaped in JSON text, so values are compared parsed.
            #expect(responses["an empty patch"]?["displayName"] as? String == "ada")
            #expect(responses["an https photo"]?["photoURL"] as? String == "https://cdn.example.com/ada.jpg")
            #expect(responses["a photo of 2048 characters"]?["photoURL"] as? String == longest)
            #expect(responses["name and photo together"]?["displayName"] as? String == "Ada.Two")
            #expect(responses["name and photo together"]?["photoURL"] as? String == "https://cdn.example.com/two.png")
            let cleared = try #require(responses["a null photo"])
            expectUser(cleared.json, displayName: "Ada.Two")
            #expect(cleared["photoURL"] is NSNull, "photoURL is null again: \(cleared)")
            let me = try server.me(token)
            #expect(me["displayName"] as? String == "Ada.Two" && me["photoURL"] is NSNull, "refused patches changed nothing: \(me)")
        }

        /// The document says `format: uri`: schemathesis found `https://[.584]:883/z` (no
        /// IPv6 address between the brackets) accepted and served back in the profile.
        @Test func aPhotoURLMustBeAURI() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            func row(_ name: String, _ url: String, _ status: Int, _ code: String? = nil) -> Scenario {
                Scenario(name, "PATCH", "/v1/users/me", token: ada.accessToken, json: ["photoURL": url], status: status, code: code,
                         field: code == nil ? nil : "photoURL")
            }
            let responses = try server.run([
                row("a bracketed host that is no IPv6 address", "https://[.584]:883/z", 400, "INVALID_ARGUMENT"),
                row("an IPv4 address in brackets", "https://[192.0.2.1]/me.png", 400, "INVALID_ARGUMENT"),
                row("nine IPv6 groups", "https://[1:2:3:4:5:6:7:8:9]/me.png", 400, "INVALID_ARGUMENT"),
                row("a path character a URI does not allow", "https://cdn.example.com/<script>", 400, "INVALID_ARGUMENT"),
                row("a percent sign without two hex digits", "https://cdn.example.com/100%", 400, "INVALID_ARGUMENT"),
                row("two fragments", "https://cdn.example.com/a#b#c", 400, "INVALID_ARGUMENT"),
                row("an IPv6 host with an IPv4 tail", "https://[::ffff:192.0.2.1]:8443/a%20b.png?s=1#top", 200),
            ])
            #expect(responses["an IPv6 host with an IPv4 tail"]?["photoURL"] as? String == "https://[::ffff:192.0.2.1]:8443/a%20b.png?s=1#top")
            #expect(try server.me(ada.accessToken)["photoURL"] as? String == "https://[::ffff:192.0.2.1]:8443/a%20b.png?s=1#top",
                    "the refused URLs changed nothing")
        }

        @Test func deletingTheAccountRemovesEverythingAndRevokesEverySessionAtOnce() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "Ada.Gone")
            let phone = try server.logIn("ada@example.com")
            let bob = try server.signUp("bob@example.com", "bob")

            let response = try server.call("DELETE", "/v1/users/me", json: ["password": ada.password], token: ada.accessToken)
            #expect(response.status == 204, "\(response)")
            for (name, session) in [("the caller", ada), ("another session", phone)] {
                expectProblem(try server.me(session.accessToken), 401, "SESSION_REVOKED", name)
                expectProblem(try server.refresh(session.refreshToken), 401, "INVALID_REFRESH_TOKEN", name)
            }
            #expect(try StoredRows(server).rowsOfUser(ada.id) == ["users": 0, "display_names": 0, "presence": 0, "sessions": 0])
            expectProblem(try server.call("GET", "/v1/users/\(ada.id)", token: bob.accessToken), 404, "USER_NOT_FOUND")
            expectProblem(try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": ada.password]),
                          401, "INVALID_LOGIN_CREDENTIALS")
            #expect(try server.availability("ada.gone")["available"] as? Bool == true, "the name is free")
            try server.signUp("ADA@example.com", "ada.gone")
        }

        @Test func otherMethodsOnMeAreNotAllowed() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let responses = try server.run([
                Scenario("PUT", "PUT", "/v1/users/me", token: ada.accessToken, json: ["displayName": "other"], status: 405, code: "METHOD_NOT_ALLOWED"),
                Scenario("POST", "POST", "/v1/users/me", token: ada.accessToken, json: [:], status: 405, code: "METHOD_NOT_ALLOWED"),
            ])
            let allow = responses["PUT"]?.header("Allow") ?? ""
            for method in ["GET", "PATCH", "DELETE"] {
                #expect(allow.contains(method), "Allow names \(method): \(allow)")
            }
        }

        @Test func deletingTheAccountNeedsThePassword() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let path = "/v1/users/me"
            try server.run([
                Scenario("wrong password", "DELETE", path, token: ada.accessToken, json: ["password": "not-my-password-1"],
                         status: 401, code: "INVALID_LOGIN_CREDENTIALS", excludes: ["not-my-password-1"]),
                Scenario("password missing", "DELETE", path, token: ada.accessToken, json: [:], status: 400, code: "INVALID_ARGUMENT", field: "password"),
                Scenario("no token", "DELETE", path, json: ["password": ada.password], status: 401, code: "UNAUTHENTICATED"),
            ])
            #expect(try server.me(ada.accessToken).status == 200, "the account is still there")
            #expect(try StoredRows(server).rowsOfUser(ada.id) == ["users": 1, "display_names": 1, "presence": 1, "sessions": 1])
        }
    }
}
