import Foundation
@testable import LatchkeyCore
import Testing

/// The bearer checks of PostgreSQL, whose session reads go in batches (`SessionReadBatches`).
@Suite struct SessionReadBatchesTests {
    @Test func aTextArrayLiteralCarriesEveryTextBackUnchanged() throws {
        let scratch = try ScratchDatabase(.postgres)
        defer { scratch.close() }
        let texts = ["plain", "", "NULL", "a,b", "{x}", "say \"hi\"", "back\\slash", "trailing\\", " spaced ", "Kelvin \u{212A}", "é"]
        let back = try scratch.database.read { db in
            try db.query("SELECT t FROM unnest(CAST(? AS TEXT[])) WITH ORDINALITY AS u(t, n) ORDER BY n", PostgreSQLTextArray.literal(texts)) {
                $0.text(at: 0)
            }
        }
        #expect(back == texts)
    }

    @Test func eachCheckOfABatchGetsItsOwnSessionsVerdict() async throws {
        let scratch = try ScratchDatabase(.postgres)
        defer { scratch.close() }
        let core = try scratch.services()
        let batches = try #require(core.sessionReadBatches, "PostgreSQL batches its bearer checks")
        let form = { (email: String, name: String) in
            SignupForm(email: email, password: "lighthouse-Quokka-42", displayName: name, confirmPassword: nil)
        }
        let ada = try await core.accounts.signup(form("ada@example.com", "Ada.L"), userAgent: nil)
        let grace = try await core.accounts.signup(form("grace@example.com", "Grace.H"), userAgent: nil)
        let loggedOut = try await core.accounts.signup(form("alan@example.com", "Alan.T"), userAgent: nil)
        try await core.sessions.logout(core.authenticate(authorization: "Bearer \(loggedOut.accessToken)"))

        // Started together, so they share batches; each answer must still be its own.
        let tokens = [ada.accessToken, grace.accessToken, loggedOut.accessToken] + Array(repeating: ada.accessToken, count: 20)
        let verdicts = await withTaskGroup(of: (Int, Result<Authenticated, any Error>).self) { group in
            for (index, token) in tokens.enumerated() {
                group.addTask {
                    let verdict = await withCheckedContinuation { continuation in
                        core.verifier.verify(authorization: "Bearer \(token)", cache: VerifiedTokenCache(), batches: batches) {
                            continuation.resume(returning: $0)
                        }
                    }
                    return (index, verdict)
                }
            }
            var verdicts: [Int: Result<Authenticated, any Error>] = [:]
            for await (index, verdict) in group { verdicts[index] = verdict }
            return verdicts
        }
        #expect(try verdicts[0]?.get().user.displayName == "Ada.L")
        #expect(try verdicts[1]?.get().user.displayName == "Grace.H")
        #expect(throws: AccessError.sessionRevoked) { try verdicts[2]?.get() }
        for index in 3..<tokens.count {
            #expect(try verdicts[index]?.get().userID == verdicts[0]?.get().userID)
        }
    }
}
