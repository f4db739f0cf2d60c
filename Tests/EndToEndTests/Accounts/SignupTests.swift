import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `POST /v1/auth/signup`: the TokenPair, every validation rule of docs/api.md with its code,
    /// the body conventions (415, MALFORMED_JSON, INVALID_ARGUMENT, 413).
    @Suite struct Signup {
        /// `count` printable ASCII characters that neither repeat a unit nor run in sequence.
        static func varied(_ count: Int) -> String {
            String((0..<count).map { Character(Unicode.Scalar(UInt8(33 + ($0 * 37) % 90))) })
        }

        static let password = AccountServer.password

        static func body(_ email: String, _ displayName: String, password: String = password, confirm: String? = nil) -> [String: Any] {
            var body: [String: Any] = ["email": email, "password": password, "displayName": displayName]
            if let confirm { body["confirmPassword"] = confirm }
            return body
        }

        static func row(
            _ name: String, _ body: [String: Any], _ status: Int, _ code: String? = nil, field: String? = nil, reason: String? = nil
        ) -> Scenario {
            // A password that is an everyday word ("password") may appear in a detail as that word.
            let password = body["password"] as? String ?? ""
            let echo = password.lowercased() == "password" ? [] : [password]
            return Scenario(
                name, "POST", "/v1/auth/signup", json: body, status: status, code: code, field: field, reason: reason,
                excludes: status == 201 ? ["pbkdf2"] : echo + ["pbkdf2"])
        }

        @Test func signupAnswers201WithATokenPairThatSignsTheUserIn() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let response = try server.call(
                "POST", "/v1/auth/signup", json: Self.body("ada@example.com", "ada.lovelace"), headers: ["X-Request-Id": "signup-1"])
            expectTokenPair(response, 201, email: "ada@example.com", displayName: "ada.lovelace")
            #expect(response.header("X-Request-Id") == "signup-1")
            #expect(!response.text.contains(Self.password))
            let user = try #require(response["user"] as? [String: Any])
            #expect(user["emailVerified"] as? Bool == false)
            #expect(user["photoURL"] is NSNull)

            let me = try server.me(response["accessToken"] as? String)
            expectPrivateJSON(me, 200)
            expectUser(me.json, email: "ada@example.com", displayName: "ada.lovelace")
            #expect(me["id"] as? String == user["id"] as? String)
            #expect(me["createdAt"] as? String == user["createdAt"] as? String)
        }

        @Test func everyValidationRuleAnswersItsCode() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let p = Self.password
            let email254 = String(repeating: "b", count: 242) + "@example.com"
            let email255 = String(repeating: "c", count: 243) + "@example.com"
            try server.run([
                Self.row("a well-formed signup", Self.body("row@example.com", "Row.One"), 201),
                Self.row("a matching confirmPassword", Self.body("confirm@example.com", "confirmed", confirm: p), 201),
                Self.row("unknown fields are ignored", Self.body("extra@example.com", "extra_fields").merging(["favouriteColour": "teal", "admin": true]) { $1 }, 201),

                Self.row("email without @", Self.body("not-an-email", "n1x"), 400, "INVALID_EMAIL", field: "email"),
                Self.row("email without a top-level domain", Self.body("ada@example", "n2x"), 400, "INVALID_EMAIL", field: "email"),
                Self.row("email with a one-letter top-level domain", Self.body("ada@example.c", "n3x"), 400, "INVALID_EMAIL", field: "email"),
                Self.row("email with a space inside", Self.body("ada lovelace@example.com", "n4x"), 400, "INVALID_EMAIL", field: "email"),
                Self.row("email matching only in part", Self.body("ada@example.com <x>", "n5x"), 400, "INVALID_EMAIL", field: "email"),
                Self.row("email of 255 characters", Self.body(email255, "n6x"), 400, "INVALID_EMAIL", field: "email"),
                Self.row("email of 254 characters", Self.body(email254, "long_email"), 201),
                Self.row("empty email", Self.body("", "n7x"), 400, "INVALID_EMAIL", field: "email"),

                Self.row("password of 7 characters", Self.body("p7@example.com", "p7x", password: "Qx7!kp2"), 400, "WEAK_PASSWORD", field: "password"),
                Self.row("password of 8 characters", Self.body("p8@example.com", "p8x", password: "Qx7!kp2m"), 201),
                Self.row("password of 128 characters", Self.body("p128@example.com", "p128", password: Self.varied(128)), 201),
                Self.row("password of 129 characters", Self.body("p129@example.com", "p129", password: Self.varied(129)), 400, "WEAK_PASSWORD", field: "password"),
                Self.row("password of 7 scalars in 14 bytes", Self.body("u7@example.com", "u7x", password: "\u{E9}\u{E0}\u{E8}\u{F9}\u{E2}\u{EA}\u{EE}"), 400, "WEAK_PASSWORD", field: "password"),
                Self.row("password of 8 scalars", Self.body("u8@example.com", "u8x", password: "\u{E9}\u{E0}\u{E8}\u{F9}\u{E2}\u{EA}\u{EE}\u{F4}"), 201),
                Self.row("password of 8 scalars in 4 characters", Self.body("u4@example.com", "u4x", password: "\u{1F44D}\u{1F3FD}\u{1F44B}\u{1F3FF}\u{1F64F}\u{1F3FB}\u{1F44C}\u{1F3FE}"), 201),
                Self.row("repetitive password", Self.body("r0@example.com", "r0x", password: "zzzzzzzzzz"), 400, "WEAK_PASSWORD", field: "password"),
                Self.row("sequential password", Self.body("s0@example.com", "s0x", password: "98765432zyx"), 400, "WEAK_PASSWORD", field: "password"),
                Self.row("common password", Self.body("c1@example.com", "c1x", password: "password"), 400, "WEAK_PASSWORD", field: "password"),
                Self.row("common password in another case", Self.body("c2@example.com", "c2x", password: "PaSsWoRd"), 400, "WEAK_PASSWORD", field: "password"),
                Self.row("common password in capitals", Self.body("c3@example.com", "c3x", password: "QWERTYUIOP"), 400, "WEAK_PASSWORD", field: "password"),
                Self.row("common digits", Self.body("c4@example.com", "c4x", password: "12345678"), 400, "WEAK_PASSWORD", field: "password"),
                Self.row("common phrase", Self.body("c5@example.com", "c5x", password: "iloveyou"), 400, "WEAK_PASSWORD", field: "password"),

                Self.row("display name of 2 characters", Self.body("d1@example.com", "ab"), 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "TOO_SHORT"),
                Self.row("display name of 3 characters", Self.body("d2@example.com", "abc"), 201),
                Self.row("display name of 30 characters", Self.body("d3@example.com", String(repeating: "x", count: 30)), 201),
                Self.row("display name of 31 characters", Self.body("d4@example.com", String(repeating: "y", count: 31)), 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "TOO_LONG"),
                Self.row("display name with a space", Self.body("d5@example.com", "ada lovelace"), 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "INVALID_CHARACTERS"),
                Self.row("display name with a hyphen", Self.body("d6@example.com", "ada-l"), 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "INVALID_CHARACTERS"),
                Self.row("display name with an accented letter", Self.body("d7@example.com", "ad\u{E1}l"), 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "INVALID_CHARACTERS"),
                Self.row("display name with an emoji", Self.body("d8@example.com", "ada\u{1F600}"), 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "INVALID_CHARACTERS"),
                Self.row("display name starting with a period", Self.body("d9@example.com", ".ada"), 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "LEADING_OR_TRAILING_PERIOD"),
                Self.row("display name ending with a period", Self.body("d10@example.com", "ada."), 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "LEADING_OR_TRAILING_PERIOD"),
                Self.row("display name with two periods in a row", Self.body("d11@example.com", "ada..l"), 400, "DISPLAY_NAME_INVALID", field: "displayName", reason: "CONSECUTIVE_PERIODS"),
                Self.row("display name of every allowed kind of character", Self.body("d12@example.com", "A_z.0_9.b"), 201),

                Self.row("reserved name", Self.body("r1@example.com", "admin"), 409, "DISPLAY_NAME_TAKEN", field: "displayName", reason: "RESERVED"),
                Self.row("reserved name in capitals", Self.body("r2@example.com", "ADMIN"), 409, "DISPLAY_NAME_TAKEN", field: "displayName", reason: "RESERVED"),
                Self.row("reserved name capitalised", Self.body("r3@example.com", "Support"), 409, "DISPLAY_NAME_TAKEN", field: "displayName", reason: "RESERVED"),
                Self.row("reserved name in mixed case", Self.body("r4@example.com", "lAtChKeY"), 409, "DISPLAY_NAME_TAKEN", field: "displayName", reason: "RESERVED"),
                Self.row("reserved name undefined", Self.body("r5@example.com", "Undefined"), 409, "DISPLAY_NAME_TAKEN", field: "displayName", reason: "RESERVED"),
                Self.row("reserved name null", Self.body("r6@example.com", "NULL"), 409, "DISPLAY_NAME_TAKEN", field: "displayName", reason: "RESERVED"),

                Self.row("confirmPassword that differs", Self.body("m1@example.com", "m1x", confirm: p + "!"), 400, "PASSWORDS_DO_NOT_MATCH"),

                Self.row("email already registered, in another case", Self.body("ROW@Example.COM", "row_two"), 409, "EMAIL_EXISTS", field: "email"),
                Self.row("display name taken, in another case", Self.body("row2@example.com", "row.one"), 409, "DISPLAY_NAME_TAKEN", field: "displayName"),
            ])
        }

        @Test func bodiesThatAreNotJSONObjectsOfTheRightShapeAreRefused() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let good = #"{"email":"ok@example.com","password":"lighthouse-Quokka-42","displayName":"okay"}"#
            let path = "/v1/auth/signup"
            let padding = String(repeating: "x", count: 70 * 1024)
            func exactly(_ size: Int, _ name: String) -> String {
                let head = #"{"email":"\#(name)@example.com","password":"lighthouse-Quokka-42","displayName":"\#(name)","padding":""#
                return head + String(repeating: "y", count: size - head.utf8.count - 2) + #""}"#
            }
            let rows = [
                Scenario("text/plain", "POST", path, raw: (good, "text/plain"), status: 415, code: "UNSUPPORTED_MEDIA_TYPE", contains: ["application/json"]),
                Scenario("no Content-Type", "POST", path, raw: (good, nil), status: 415, code: "UNSUPPORTED_MEDIA_TYPE", contains: ["application/json"]),
                Scenario("form encoding", "POST", path, raw: ("email=ok%40example.com&password=x&displayName=okay", "application/x-www-form-urlencoded"),
                         status: 415, code: "UNSUPPORTED_MEDIA_TYPE", contains: ["application/json"]),
                Scenario("truncated JSON", "POST", path, raw: (#"{"email": "#, "application/json"), status: 400, code: "MALFORMED_JSON"),
                Scenario("not JSON at all", "POST", path, raw: ("hello", "application/json"), status: 400, code: "MALFORMED_JSON"),
                Scenario("email of the wrong type", "POST", path,
                         json: ["email": 42, "password": "lighthouse-Quokka-42", "displayName": "typed"], status: 400, code: "INVALID_ARGUMENT", field: "email"),
                Scenario("password of the wrong type", "POST", path,
                         json: ["email": "t@example.com", "password": true, "displayName": "typed"], status: 400, code: "INVALID_ARGUMENT", field: "password"),
                Scenario("displayName of the wrong type", "POST", path,
                         json: ["email": "t@example.com", "password": "lighthouse-Quokka-42", "displayName": ["typed"]], status: 400, code: "INVALID_ARGUMENT", field: "displayName"),
                Scenario("confirmPassword of the wrong type", "POST", path,
                         json: ["email": "t@example.com", "password": "lighthouse-Quokka-42", "displayName": "typed", "confirmPassword": 5],
                         status: 400, code: "INVALID_ARGUMENT", field: "confirmPassword"),
                Scenario("email missing", "POST", path,
                         json: ["password": "lighthouse-Quokka-42", "displayName": "typed"], status: 400, code: "INVALID_ARGUMENT", field: "email"),
                Scenario("password missing", "POST", path,
                         json: ["email": "t@example.com", "displayName": "typed"], status: 400, code: "INVALID_ARGUMENT", field: "password"),
                Scenario("displayName missing", "POST", path,
                         json: ["email": "t@example.com", "password": "lighthouse-Quokka-42"], status: 400, code: "INVALID_ARGUMENT", field: "displayName"),
                Scenario("JSON over 64 KiB", "POST", path,
                         json: ["email": "big@example.com", "password": "lighthouse-Quokka-42", "displayName": "big", "padding": padding],
                         status: 413, code: "PAYLOAD_TOO_LARGE"),
                Scenario("JSON of 64 KiB and one byte", "POST", path, raw: (exactly(65_537, "over_limit"), "application/json"), status: 413, code: "PAYLOAD_TOO_LARGE"),
                Scenario("JSON of exactly 64 KiB", "POST", path, raw: (exactly(65_536, "at_limit"), "application/json"), status: 201),
                Scenario("charset parameter on the JSON type", "POST", path, raw: (good, "application/json; charset=utf-8"), status: 201),
                Scenario("GET is not allowed", "GET", path, status: 405, code: "METHOD_NOT_ALLOWED"),
            ]
            let responses = try server.run(rows)
            #expect(responses["GET is not allowed"]?.header("Allow")?.contains("POST") == true)
            #expect(try StoredRows(server).total("users") == 2, "only the two good signups created accounts")
        }

        @Test func everyInvalidFieldIsListedAtOnce() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let response = try server.call("POST", "/v1/auth/signup", json: Self.body("nope", "a", password: "Zk3!q"))
            expectProblem(response, 400, nil, field: "email")
            #expect(["INVALID_EMAIL", "WEAK_PASSWORD", "DISPLAY_NAME_INVALID"].contains(response.code ?? ""), "\(response)")
            let errors = try #require(response["errors"] as? [[String: Any]], "errors lists every failed field: \(response)")
            let byField = Dictionary(errors.map { ($0["field"] as? String ?? "", $0["code"] as? String ?? "") }) { first, _ in first }
            #expect(byField == ["email": "INVALID_EMAIL", "password": "WEAK_PASSWORD", "displayName": "DISPLAY_NAME_INVALID"], "\(errors)")
            #expect(errors.allSatisfy { ($0["detail"] as? String)?.isEmpty == false }, "each error says what is wrong: \(errors)")
            #expect(!response.text.contains("Zk3!q"), "the password is never echoed")
        }

        @Test func aMismatchedConfirmationIsListedWithTheOtherFailures() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let response = try server.call("POST", "/v1/auth/signup", json: Self.body("nope", "fine_name", confirm: "something-else-entirely"))
            expectProblem(response, 400, nil, field: "email")
            let errors = try #require(response["errors"] as? [[String: Any]], "\(response)")
            let codes = Set(errors.compactMap { $0["code"] as? String })
            #expect(codes == ["INVALID_EMAIL", "PASSWORDS_DO_NOT_MATCH"], "\(errors)")
        }

        @Test func weakPasswordDetailSaysWhichRuleFailed() throws {
            let server = try AccountServer()
            defer { server.stop() }
            var details: [String] = []
            for (index, password) in ["Qx7!kp2", String(repeating: "Zq9!", count: 33), "password"].enumerated() {
                let response = try server.call("POST", "/v1/auth/signup", json: Self.body("w\(index)@example.com", "weak\(index)", password: password))
                expectProblem(response, 400, "WEAK_PASSWORD", field: "password")
                details.append(response["detail"] as? String ?? "")
            }
            #expect(Set(details).count == 3, "too short, too long and common each get their own detail: \(details)")
        }

        @Test func emailIsTrimmedAndUniqueWithoutRegardToCase() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let response = try server.call("POST", "/v1/auth/signup", json: Self.body("  Grace@Example.com \n", "grace"))
            expectTokenPair(response, 201)
            let email = try #require((response["user"] as? [String: Any])?["email"] as? String)
            #expect(email.lowercased() == "grace@example.com", "the address is stored trimmed: \(email)")
            expectProblem(try server.call("POST", "/v1/auth/signup", json: Self.body("grace@example.com", "grace2")), 409, "EMAIL_EXISTS", field: "email")
            expectProblem(try server.call("POST", "/v1/auth/signup", json: Self.body("GRACE@EXAMPLE.COM", "grace3")), 409, "EMAIL_EXISTS", field: "email")
            #expect(try server.logIn("gRaCe@example.COM").id == (response["user"] as? [String: Any])?["id"] as? String)
        }

        @Test func displayNameKeepsTheUsersSpellingAndClaimsEveryCase() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "Ada.Lovelace")
            #expect(ada.displayName == "Ada.Lovelace")
            #expect(try server.me(ada.accessToken)["displayName"] as? String == "Ada.Lovelace")
            for spelling in ["ada.lovelace", "ADA.LOVELACE", "aDa.LoVeLaCe"] {
                expectProblem(try server.call("POST", "/v1/auth/signup", json: Self.body("\(spelling)@example.org", spelling)),
                              409, "DISPLAY_NAME_TAKEN", field: "displayName", spelling)
            }
        }

        @Test func signupCreatesAccountClaimPresenceAndSessionTogether() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada", userAgent: "Signup/1.0")
            let rows = try StoredRows(server)
            #expect(try rows.rowsOfUser(ada.id) == ["users": 1, "display_names": 1, "presence": 1, "sessions": 1])
            #expect(try rows.presenceStatus(ada.id) == "online")

            let sessions = try server.call("GET", "/v1/auth/sessions", token: ada.accessToken)
            let list = try #require(sessions["sessions"] as? [[String: Any]], "\(sessions)")
            #expect(list.count == 1)
            #expect(list.first?["id"] as? String == ada.sessionID)
            #expect(list.first?["userAgent"] as? String == "Signup/1.0")
        }

        @Test func refusedSignupsLeaveNothingBehind() throws {
            let server = try AccountServer()
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            let attempts: [[String: Any]] = [
                Self.body("ADA@example.com", "someone_new"),
                Self.body("someone@example.com", "ADA"),
                Self.body("bad", "other_new"),
                Self.body("weak@example.com", "weakling", password: "password"),
                Self.body("res@example.com", "root"),
            ]
            for attempt in attempts {
                let response = try server.call("POST", "/v1/auth/signup", json: attempt)
                #expect([400, 409].contains(response.status), "\(response)")
            }
            let rows = try StoredRows(server)
            for table in ["users", "display_names", "presence", "sessions"] {
                #expect(try rows.total(table) == 1, "\(table) holds only the first account's row")
            }
            // The names and addresses refused along the way are still free.
            try server.signUp("someone@example.com", "someone_new")
            try server.signUp("weak@example.com", "weakling")
        }
    }
}
