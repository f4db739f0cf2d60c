@testable import LatchkeyCore
import Testing

@Suite struct TOTPSealingTests {
    static let key = OutboxKey(secret: Array(repeating: 5, count: 32))!

    @Test func opensWhatItSealedForTheSameUser() throws {
        let totp = TOTP.generate()
        let box = totp.sealed(for: "user-a", with: Self.key)
        #expect(box.count == 12 + 20 + 16, "nonce, secret, tag")
        let opened = try #require(TOTP.opened(box, for: "user-a", with: Self.key))
        #expect(opened.secret == totp.secret)
        #expect(opened.digits == 6)
    }

    /// What the database holds says nothing of the secret: the secret's bytes appear nowhere
    /// in it, and sealing twice gives two different boxes.
    @Test func theBoxHidesTheSecret() {
        let totp = TOTP(secret: Array("12345678901234567890".utf8))
        let first = totp.sealed(for: "user-a", with: Self.key)
        let second = totp.sealed(for: "user-a", with: Self.key)
        #expect(first != second)
        for box in [first, second] {
            #expect(!box.windowsOfCount(totp.secret.count).contains { Array($0) == totp.secret })
        }
    }

    /// Mallory can write to the database (an SQL injection, a stolen backup restored, a
    /// careless replica) but not read the server's key. He enrols his own authenticator on
    /// his own account, then copies his sealed secret onto Alice's row, hoping his phone's
    /// codes will pass Alice's second factor. The secret was sealed for his user id, so on
    /// Alice's row it does not open: the server finds no factor it can check, not his.
    @Test func aSecretCopiedToAnotherUsersRowDoesNotOpen() {
        let mallorys = TOTP.generate().sealed(for: "mallory", with: Self.key)
        #expect(TOTP.opened(mallorys, for: "alice", with: Self.key) == nil)
        #expect(TOTP.opened(mallorys, for: "alice-7", with: Self.key) == nil, "an id of the same length")
        #expect(TOTP.opened(mallorys, for: "mallor", with: Self.key) == nil, "a prefix of the id")
        #expect(TOTP.opened(mallorys, for: "mallory ", with: Self.key) == nil)
        #expect(TOTP.opened(mallorys, for: "mallory", with: Self.key) != nil)
    }

    @Test func anotherKeyAnAlteredBoxOrAMailBodyDoesNotOpen() {
        let box = TOTP.generate().sealed(for: "user-a", with: Self.key)
        let otherKey = OutboxKey(secret: Array(repeating: 6, count: 32))!
        #expect(TOTP.opened(box, for: "user-a", with: otherKey) == nil)
        for index in [0, 12, box.count - 1] {
            var altered = box
            altered[index] ^= 0x01
            #expect(TOTP.opened(altered, for: "user-a", with: Self.key) == nil, "byte \(index)")
        }
        #expect(TOTP.opened(Array(box.prefix(27)), for: "user-a", with: Self.key) == nil, "too short")
        #expect(TOTP.opened([], for: "user-a", with: Self.key) == nil)
        // Something else sealed under the same key (as mail bodies are) never passes as a secret.
        let mail = SealedMail(MailMessage(recipient: "user-a", subject: "", text: "", html: "12345678901234567890"), key: Self.key)
        #expect(TOTP.opened(mail.body, for: "user-a", with: Self.key) == nil)
    }
}

extension Array {
    /// Every run of `count` neighbours, for "does this byte string occur in that one".
    func windowsOfCount(_ count: Int) -> [ArraySlice<Element>] {
        guard count <= self.count else { return [] }
        return (0...(self.count - count)).map { self[$0..<($0 + count)] }
    }
}
