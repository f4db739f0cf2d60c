import Foundation
import TestSupport

/// Firebase export files for the import tests, and `latchkey import firebase` run on them
/// against a server's data directory.
struct FirebaseExport {
    /// The example of github.com/firebase/scrypt's README: a project's password hash
    /// parameters, and one exported account's uid, salt, hash and password.
    static let signerKey = "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="
    static let saltSeparator = "Bw=="
    static let uid = "kYi4EvWQlQTKSfnJ3dRSP6IH3ed2"
    static let salt = "42xEC+ixf3L2lw=="
    static let hash = "lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ=="
    static let password = "user1password"
    /// 1508893925000 ms, the README's createdAt.
    static let createdAt = "2017-10-25T01:12:05Z"

    /// The flags of the README's parameters.
    static let parameters = ["--hash-key", signerKey, "--salt-separator", saltSeparator, "--rounds", "8", "--mem-cost", "14"]

    let directory = LatchkeyProcess.makeTemporaryDirectory()

    /// An account as `firebase auth:export --format=json` writes it, with the README's
    /// salt and hash (so its password is `password`) unless told otherwise.
    static func account(
        _ uid: String, email: String?, displayName: String? = nil, emailVerified: Bool = false, disabled: Bool = false,
        createdAt: String = "1508893925000", hashed: Bool = true
    ) -> [String: Any] {
        var account: [String: Any] = [
            "localId": uid, "emailVerified": emailVerified, "disabled": disabled, "createdAt": createdAt, "lastSignedInAt": createdAt,
            "providerUserInfo": [["providerId": "password", "rawId": email ?? uid, "federatedId": email ?? uid]],
        ]
        if let email { account["email"] = email }
        if let displayName { account["displayName"] = displayName }
        if hashed {
            account["passwordHash"] = hash
            account["salt"] = salt
        }
        return account
    }

    /// Writes `object` as JSON (or `text` as it is) and returns the file's path.
    func write(_ name: String, _ object: Any) throws -> String {
        try write(name, text: String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys]), as: UTF8.self))
    }

    func write(_ name: String, text: String) throws -> String {
        let path = directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `latchkey import firebase --users USERS <parameters> [--firestore] [--rtdb] --json`
    /// on the server's data directory.
    static func run(
        _ server: AccountServer, users: String, firestore: String? = nil, rtdb: String? = nil,
        parameters: [String] = FirebaseExport.parameters, json: Bool = true
    ) throws -> (status: Int32?, output: String) {
        var arguments = ["import", "firebase", "--users", users] + parameters + ["--data-dir", server.dataDirectory]
        if let firestore { arguments += ["--firestore", firestore] }
        if let rtdb { arguments += ["--rtdb", rtdb] }
        if json { arguments.append("--json") }
        return try Accounts.AdminCommands.run(arguments)
    }

    /// The `--json` summary: counts, and each list as id → reason.
    struct Summary: Equatable, CustomStringConvertible {
        let imported: Int
        let updated: Int
        let skipped: [String: String]
        let nameless: [String: String]

        init(imported: Int, updated: Int, skipped: [String: String], nameless: [String: String]) {
            (self.imported, self.updated, self.skipped, self.nameless) = (imported, updated, skipped, nameless)
        }

        init(_ output: String) throws {
            guard let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any],
                  Set(object.keys) == ["imported", "updated", "skipped", "nameless"],
                  let imported = object["imported"] as? Int, let updated = object["updated"] as? Int,
                  let skipped = object["skipped"] as? [[String: String]], let nameless = object["nameless"] as? [[String: String]]
            else { throw TestError("not an import summary: \(output)") }
            func byID(_ entries: [[String: String]]) -> [String: String] {
                Dictionary(entries.map { ($0["id"] ?? "", $0["reason"] ?? "") }, uniquingKeysWith: { first, _ in first + " (twice)" })
            }
            self.init(imported: imported, updated: updated, skipped: byID(skipped), nameless: byID(nameless))
        }

        var description: String { "imported \(imported), updated \(updated), skipped \(skipped), nameless \(nameless)" }
    }
}
