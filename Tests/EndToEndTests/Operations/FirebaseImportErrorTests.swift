import Foundation
import Testing
import TestSupport

extension Accounts.FirebaseImport {
    /// Bad arguments exit 2 with the problem on the first line; an export that cannot be
    /// read, or is not what it should be, exits 1 naming the file and where, and writes
    /// nothing at all (the Auth export is checked whole before the first account).
    @Test func badArgumentsExit2AndMalformedExportsExit1NamingWhere() throws {
        let server = try AccountServer()
        defer { server.stop() }
        try server.signUp("ada@example.com", "ada")
        let export = FirebaseExport()
        let good = try export.write("users.json", ["users": [FirebaseExport.account("u1", email: "u1@example.com", displayName: "u_one")]])

        func firstLine(_ output: String) -> String { String(output.split(separator: "\n", omittingEmptySubsequences: false).first ?? "") }
        func parameters(replacing flag: String, with value: String?) -> [String] {
            var result: [String] = []
            var rest = FirebaseExport.parameters[...]
            while let name = rest.popFirst(), let old = rest.popFirst() {
                if name != flag { result += [name, old] } else if let value { result += [name, value] }
            }
            return result
        }
        let usage: [(parameters: [String], message: String)] = [
            (parameters(replacing: "--hash-key", with: nil), "latchkey: Missing expected argument '--hash-key <b64>'"),
            (parameters(replacing: "--hash-key", with: "not base64!"),
             "latchkey: --hash-key must be the base64_signer_key of the project's password hash parameters (base64)"),
            (parameters(replacing: "--salt-separator", with: "B w=="),
             "latchkey: --salt-separator must be the base64_salt_separator of the project's password hash parameters (base64)"),
            (parameters(replacing: "--rounds", with: "0"), "latchkey: --rounds must be 1 to 8, as the project's password hash parameters say"),
            (parameters(replacing: "--rounds", with: "eight"), "latchkey: The value 'eight' is invalid for '--rounds <n>'"),
            (parameters(replacing: "--mem-cost", with: "15"), "latchkey: --mem-cost must be 1 to 14, as the project's password hash parameters say"),
        ]
        for (arguments, message) in usage {
            let result = try FirebaseExport.run(server, users: good, parameters: arguments)
            #expect(result.status == 2 && firstLine(result.output) == message, "\(arguments): \(result.output)")
        }
        let noUsers = try Accounts.AdminCommands.run(["import", "firebase"] + FirebaseExport.parameters + ["--data-dir", server.dataDirectory])
        #expect(noUsers.status == 2 && firstLine(noUsers.output) == "latchkey: Missing expected argument '--users <file>'", "\(noUsers.output)")

        let missing = export.directory + "/missing.json"
        let unreadable = try FirebaseExport.run(server, users: missing)
        #expect(unreadable.status == 1 && unreadable.output == "latchkey: cannot read \(missing): No such file or directory", "\(unreadable.output)")

        // Each malformed file after a good account: nothing of it may be written.
        let first = #"{"users": [{"localId": "u1", "email": "u1@example.com"},"#
        let malformed: [(name: String, text: String, message: String)] = [
            ("syntax.json", first + "\n  {\"localId\": \"u2\" \"email\": \"u2@example.com\"}]}", "line 2, column 20: expected ',' or '}', found '\"'"),
            ("type.json", first + "\n  {\"localId\": \"u2\", \"emailVerified\": \"yes\"}]}", "line 2, column 38: users[1].emailVerified: expected true or false, found a string"),
            ("created.json", first + "\n  {\"localId\": \"u2\", \"createdAt\": \"yesterday\"}]}",
             "line 2, column 34: users[1].createdAt: expected milliseconds since 1970 (a string of digits), found \"yesterday\""),
            ("noid.json", first + "\n  {\"email\": \"u2@example.com\"}]}", "line 2, column 3: users[1]: no localId"),
            ("cut.json", first + "\n  {\"localId\": \"u2\"", "line 2, column 19: expected ',' or '}', found the end of the input"),
            ("base64.json", first + "\n  {\"localId\": \"u2\", \"passwordHash\": \"%%%\", \"salt\": \"Bw==\"}]}", "line 2, column 37: users[1].passwordHash: not base64"),
            ("length.json", first + "\n  {\"localId\": \"u2\", \"passwordHash\": \"AAAA\", \"salt\": \"Bw==\"}]}",
             "line 2, column 3: users[1].passwordHash is 3 bytes, but a hash made with this --hash-key is 64: are these the project's password hash parameters?"),
            ("other.json", #"{"kind": "identitytoolkit#DownloadAccountResponse"}"#,
             "line 1, column 52: no \"users\" array: is this the output of firebase auth:export --format=json?"),
        ]
        for file in malformed {
            let path = try export.write(file.name, text: file.text)
            let result = try FirebaseExport.run(server, users: path)
            #expect(result.status == 1 && result.output == "latchkey: \(path): \(file.message)", "\(file.name): \(result.output)")
        }
        let firestore = try export.write("firestore.json", text: #"{"users": {"u1": "Ada"}}"#)
        let badFirestore = try FirebaseExport.run(server, users: good, firestore: firestore)
        #expect(badFirestore.status == 1, "\(badFirestore.output)")
        #expect(badFirestore.output == "latchkey: \(firestore): line 1, column 18: users/u1: expected a document (an object), found a string")
        let rtdb = try export.write("rtdb.json", text: #"{"userPresence": {"u1": {"status": "online", "lastSeen": true}}}"#)
        let badRTDB = try FirebaseExport.run(server, users: good, rtdb: rtdb)
        #expect(badRTDB.status == 1, "\(badRTDB.output)")
        #expect(badRTDB.output == "latchkey: \(rtdb): line 1, column 58: userPresence/u1.lastSeen: expected milliseconds since 1970 (a string of digits), found true or false")

        let rows = try StoredRows(server)
        #expect(try rows.total("users") == 1, "no failed import wrote anything")
        #expect(try rows.total("imported_hash_parameters") == 0)
        let fine = try FirebaseExport.run(server, users: good)
        #expect(fine.status == 0 && (try? FirebaseExport.Summary(fine.output))?.imported == 1, "\(fine.output)")
    }
}
