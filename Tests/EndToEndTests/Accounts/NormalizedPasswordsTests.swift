import AuthCrypto
import Foundation
import Testing
import TestSupport

extension Accounts {
    /// Passwords are compared in NFKC: the same password typed on two keyboards is the
    /// same password, and a hash made before normalisation still works (and is re-made).
    @Suite struct NormalizedPasswords {
        @Test func aPasswordTypedFullWidthSignsInWithItsPlainForm() throws {
            let server = try AccountServer()
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada", password: "Ｌｉｇｈｔｈｏｕｓｅ－Ｑｕｏｋｋａ")
            expectTokenPair(try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": "Lighthouse-Quokka"]), 200)
            // A decomposed é and a composed one are one password too.
            try server.signUp("bob@example.com", "bob", password: "cafe\u{0301}-au-lait-9")
            expectTokenPair(try server.call("POST", "/v1/auth/login", json: ["email": "bob@example.com", "password": "caf\u{E9}-au-lait-9"]), 200)
        }

        @Test func aHashMadeFromThePasswordAsTypedStillWorksAndIsRemadeNormalised() throws {
            var server = try AccountServer()
            defer { server.stop() }
            let typed = "ﬁsh-and-chips-Ｎｏ９"  // a ligature and full-width letters
            try server.signUp("ada@example.com", "ada")
            server.stop()
            // As an import from another system (or an older version) would have stored it.
            let legacy = PasswordHasher(iterations: 1000).hash(typed)
            try StoredRows.write(server, "UPDATE users SET password_hash = ? WHERE email_key = ?", legacy, "ada@example.com")
            server = try server.restarted()
            expectTokenPair(try server.call("POST", "/v1/auth/login", json: ["email": "ada@example.com", "password": typed]), 200)
            let remade = try StoredRows(server).passwordHash(email: "ada@example.com")
            #expect(remade != legacy, "the hash is re-made from the normalised form")
            #expect(PasswordHasher(iterations: 1000).verify("fish-and-chips-No9", against: remade ?? ""))
        }
    }
}
