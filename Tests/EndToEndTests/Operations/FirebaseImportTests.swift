import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `latchkey import firebase` beside a running server (README, "Moving from Firebase").
    @Suite struct FirebaseImport {
        static func login(_ server: AccountServer, _ email: String, _ password: String = FirebaseExport.password) throws -> JSONResponse {
            try server.call("POST", "/v1/auth/login", json: ["email": email, "password": password])
        }

        static func user(_ id: String, _ server: AccountServer) throws -> [String: Any] {
            let shown = try AdminCommands.run(["users", "show", id, "--json", "--data-dir", server.dataDirectory])
            guard shown.status == 0, let user = try AdminCommands.json(shown.output) as? [String: Any] else { throw TestError("users show \(id): \(shown.output)") }
            return user
        }

        /// The README's account logs in with its Firebase password, which is checked against
        /// the scrypt hash once and stored as PBKDF2 (the server's 1,000 iterations) then.
        @Test func firebasesPublishedHashLogsInOnceAndIsReplacedByPBKDF2() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let export = FirebaseExport()
            let users = try export.write("users.json", ["users": [
                FirebaseExport.account(FirebaseExport.uid, email: "user1@test.com", displayName: "Test User 1"),
            ]])
            let result = try FirebaseExport.run(server, users: users)
            #expect(result.status == 0, "\(result.output)")
            #expect(try FirebaseExport.Summary(result.output)
                == .init(imported: 1, updated: 0, skipped: [:], nameless: [FirebaseExport.uid: "INVALID_CHARACTERS"]))

            let rows = try StoredRows(server)
            let imported = try #require(try rows.passwordHash(email: "user1@test.com"))
            #expect(imported.hasPrefix("$firebase-scrypt$set=1$"), "\(imported)")
            #expect(try rows.total("imported_hash_parameters") == 1, "the project's parameters are stored once")
            let wrongFirst = try Self.login(server, "user1@test.com", "user1passwore")
            expectProblem(wrongFirst, 401, "INVALID_LOGIN_CREDENTIALS", "a wrong password against the imported hash")
            #expect(try rows.passwordHash(email: "user1@test.com") == imported)

            let first = try Self.login(server, "user1@test.com")
            expectTokenPair(first, 200, email: "user1@test.com")
            let user = try #require(first["user"] as? [String: Any])
            #expect(user["id"] as? String == FirebaseExport.uid, "the Firebase uid is the id")
            #expect(user["displayName"] is NSNull, "an invalid name is not claimed: \(user)")
            #expect(user["createdAt"] as? String == FirebaseExport.createdAt)
            let token = try #require(first["accessToken"] as? String)
            #expect(JWTParts(token)?.payload["sub"] as? String == FirebaseExport.uid)
            let upgraded = try rows.passwordHash(email: "user1@test.com")
            #expect(StoredRows.iterations(ofHash: upgraded) == 1000, "PBKDF2 at the configured count now: \(upgraded ?? "none")")

            let second = try Self.login(server, "user1@test.com")
            expectTokenPair(second, 200, email: "user1@test.com")
            #expect(try rows.passwordHash(email: "user1@test.com") == upgraded, "nothing left to replace")
            expectProblem(try Self.login(server, "user1@test.com", "user1passwore"), 401, "INVALID_LOGIN_CREDENTIALS")

            // Everything that takes an id takes a Firebase uid, and a user without a name works everywhere.
            let me = try server.me(token)
            expectPrivateJSON(me, 200)
            #expect(me["id"] as? String == FirebaseExport.uid && me["displayName"] is NSNull, "\(me)")
            let profile = try server.call("GET", "/v1/users/\(FirebaseExport.uid)", token: token)
            #expect(profile.status == 200 && profile["displayName"] is NSNull, "\(profile)")
            let presence = try server.call("GET", "/v1/presence/\(FirebaseExport.uid)", token: token)
            #expect(presence["userId"] as? String == FirebaseExport.uid && presence["status"] as? String == "online", "online since the login: \(presence)")
            #expect(try Self.user(FirebaseExport.uid, server)["displayName"] is NSNull)
            let table = try AdminCommands.run(["users", "list", "--data-dir", server.dataDirectory])
            #expect(table.status == 0 && table.output.contains("\(FirebaseExport.uid)  user1@test.com  -"), "\(table.output)")
            let named = try server.call("PATCH", "/v1/users/me", json: ["displayName": "test.user.1"], token: token)
            #expect(named.status == 200 && named["displayName"] as? String == "test.user.1", "\(named)")
            #expect(try server.availability("Test.User.1")["reason"] as? String == "TAKEN")

            // Used on Latchkey since: a new import leaves the account as it is.
            let again = try FirebaseExport.run(server, users: users)
            #expect(try FirebaseExport.Summary(again.output)
                == .init(imported: 0, updated: 0, skipped: [FirebaseExport.uid: "ACCOUNT_IN_USE"], nameless: [:]))
            #expect(try rows.passwordHash(email: "user1@test.com") == upgraded)
            #expect(try Self.user(FirebaseExport.uid, server)["displayName"] as? String == "test.user.1")

            let audit = try AdminCommands.run(["audit", "--user", FirebaseExport.uid, "--json", "--data-dir", server.dataDirectory])
            let events = (try AdminCommands.json(audit.output) as? [[String: Any]] ?? []).compactMap { $0["event"] as? String }
            #expect(events.first == "admin_user_imported" && events.contains("login"), "\(events)")
            // The signer key is a secret of the old project: not printed, not logged, not in any user's row.
            for text in [result.output, again.output, audit.output, server.process.output, imported] {
                #expect(!text.contains(FirebaseExport.signerKey.prefix(24)), "the signer key leaked: \(text.prefix(300))")
            }
        }

        /// Names and pictures from Firestore (its name wins over the Auth export's; a name its
        /// `displayNames` gives to another user is theirs), presence from the Realtime
        /// Database, and a second run that refreshes without duplicating.
        @Test func firestoreAndRealtimeDatabaseExportsAndASecondRun() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("taken@example.com", "ada")
            let export = FirebaseExport()
            let users = try export.write("users.json", ["users": [
                FirebaseExport.account("fsWins01", email: "fs@example.com", displayName: "auth_name", emailVerified: true, createdAt: "1600000000000"),
                FirebaseExport.account("clash01", email: "clash@example.com", displayName: "ADA"),
                FirebaseExport.account("invalid01", email: "invalid@example.com", displayName: "Grace Hopper"),
                FirebaseExport.account("wantsRegistered01", email: "wants@example.com", displayName: "Grace_H"),
                FirebaseExport.account("registry01", email: "registry@example.com"),
                FirebaseExport.account("disabled01", email: "disabled@example.com", displayName: "dis.abled", emailVerified: true, disabled: true),
                FirebaseExport.account("dupEmail01", email: "Taken@Example.com", displayName: "dup"),
                FirebaseExport.account("nopass01", email: "nopass@example.com", displayName: "no_pass", hashed: false),
                FirebaseExport.account("phone01", email: nil, displayName: "phone"),
                FirebaseExport.account("bad.id", email: "bad@example.com"),
                FirebaseExport.account("me", email: "me@example.com"),
                FirebaseExport.account("reserved01", email: "reserved@example.com", displayName: "Admin"),
            ], "kind": "identitytoolkit#DownloadAccountResponse"])
            let collections: [String: Any] = [
                "users": [
                    "fsWins01": ["displayName": "fs.name", "photoURL": "https://example.com/fs.png", "bio": "x", "tags": ["a", "b"]],
                    "clash01": ["age": 3, "photoURL": "http://example.com/insecure.png"],
                ],
                "displayNames": ["grace_h": ["userId": "registry01"], "fs.name": ["userId": "fsWins01"]],
                "posts": ["p1": ["title": "hi", "comments": [["by": "clash01"]]]],
            ]
            let firestore = try export.write("firestore.json", collections)
            let rtdb = try export.write("rtdb.json", [
                "userPresence": [
                    "fsWins01": ["status": "online", "lastSeen": 1_700_000_000_000],
                    "clash01": ["status": "away"],
                    "nobody": ["status": "online", "lastSeen": 1_700_000_000_000],
                ],
                "messages": ["m1": ["text": "hello"]],
            ])
            let expected = FirebaseExport.Summary(
                imported: 8, updated: 0,
                skipped: ["dupEmail01": "EMAIL_EXISTS", "phone01": "MISSING_EMAIL", "bad.id": "INVALID_ID", "me": "INVALID_ID"],
                nameless: ["clash01": "TAKEN", "invalid01": "INVALID_CHARACTERS", "wantsRegistered01": "TAKEN", "reserved01": "RESERVED"]
            )
            let first = try FirebaseExport.run(server, users: users, firestore: firestore, rtdb: rtdb)
            #expect(first.status == 0, "\(first.output)")
            #expect(try FirebaseExport.Summary(first.output) == expected)

            let fs = try Self.user("fsWins01", server)
            #expect(fs["displayName"] as? String == "fs.name", "Firestore's name wins: \(fs)")
            #expect(fs["photoURL"] as? String == "https://example.com/fs.png")
            #expect(fs["emailVerified"] as? Bool == true && fs["disabled"] as? Bool == false)
            #expect(fs["createdAt"] as? String == "2020-09-13T12:26:40Z")
            #expect(try Self.user("registry01", server)["displayName"] as? String == "grace_h", "the name displayNames gives it")
            #expect(try Self.user("clash01", server)["photoURL"] is NSNull, "an http picture is left out")
            let disabled = try Self.user("disabled01", server)
            #expect(disabled["disabled"] as? Bool == true && disabled["emailVerified"] as? Bool == true && disabled["displayName"] as? String == "dis.abled")
            expectProblem(try Self.login(server, "disabled@example.com"), 403, "USER_DISABLED")
            expectProblem(try Self.login(server, "nopass@example.com", "any password at all"), 401, "INVALID_LOGIN_CREDENTIALS", "imported without a password")

            let profile = try server.call("GET", "/v1/users/fsWins01", token: ada.accessToken)
            #expect(profile["displayName"] as? String == "fs.name" && profile["photoURL"] as? String == "https://example.com/fs.png", "\(profile)")
            #expect(try server.call("GET", "/v1/users/clash01", token: ada.accessToken)["displayName"] is NSNull)
            let rows = try StoredRows(server)
            let online = try server.call("GET", "/v1/presence/fsWins01", token: ada.accessToken)
            #expect(online["lastSeen"] as? String == "2023-11-14T22:13:20Z", "\(online)")
            #expect(try rows.presenceStatus("fsWins01") == "online", "as the Realtime Database had it (read as offline after presenceTimeout)")
            #expect(try rows.presenceStatus("clash01") == "away")
            let away = try server.call("GET", "/v1/presence/clash01", token: ada.accessToken)
            #expect(away["lastSeen"] as? String == FirebaseExport.createdAt, "no lastSeen: since the account's creation")
            #expect(try rows.presenceStatus("invalid01") == "offline")
            let login = try Self.login(server, "fs@example.com")
            expectTokenPair(login, 200, email: "fs@example.com", displayName: "fs.name")

            let totals = { try ["users", "display_names", "presence", "imported_hash_parameters"].map { try rows.total($0) } }
            let before = try totals()
            #expect(before == [9, 5, 9, 1], "ada and 8 imported; ada's, fs.name, grace_h, dis.abled, no_pass")

            // Again, with the Firestore export in the __collections__ form: every account not
            // used since is refreshed, the one that logged in is left alone, nothing doubles.
            let wrapped = try export.write("firestore-collections.json", ["__collections__": collections])
            let second = try FirebaseExport.run(server, users: users, firestore: wrapped, rtdb: rtdb)
            #expect(second.status == 0, "\(second.output)")
            var skipped = expected.skipped
            skipped["fsWins01"] = "ACCOUNT_IN_USE"
            #expect(try FirebaseExport.Summary(second.output) == .init(imported: 0, updated: 7, skipped: skipped, nameless: expected.nameless))
            #expect(try totals() == before)
            #expect(try Self.user("registry01", server)["displayName"] as? String == "grace_h")
            #expect(try Self.user("disabled01", server)["disabled"] as? Bool == true)

            let text = try FirebaseExport.run(server, users: users, firestore: firestore, rtdb: rtdb, json: false)
            #expect(text.status == 0 && text.output.hasPrefix("imported 0, updated 7, skipped 5\n"), "\(text.output)")
            #expect(text.output.contains("wantsRegistered01  TAKEN"), "\(text.output)")

            let audit = try AdminCommands.run(["audit", "--json", "--data-dir", server.dataDirectory])
            let entries = try #require(try AdminCommands.json(audit.output) as? [[String: Any]])
            let imports = entries.filter { $0["event"] as? String == "admin_user_imported" }
            #expect(imports.count == 8 + 7 + 7)
            #expect(imports.filter { $0["detail"] as? String == "firebase update" }.count == 14)
        }
    }
}
