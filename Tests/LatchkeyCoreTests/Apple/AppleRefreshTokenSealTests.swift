@testable import LatchkeyCore
import Testing

@Suite struct AppleRefreshTokenSealTests {
    static let key = OutboxKey(secret: Array(repeating: 5, count: 32))!
    static let token = "rt.c0ffee.0.abcdefghijklmnopqrstuvwxyz"

    @Test func opensWhatItSealedForTheSameAccountAndClient() {
        let box = AppleRefreshTokenSeal.sealed(Self.token, userID: "alice", clientID: "com.example.app", with: Self.key)
        #expect(AppleRefreshTokenSeal.opened(box, userID: "alice", clientID: "com.example.app", with: Self.key) == Self.token)
    }

    /// A copy of the database (a backup, a replica, a dump) holds no token: its bytes
    /// appear nowhere in the box, and sealing twice gives two boxes.
    @Test func theBoxHidesTheToken() {
        let first = AppleRefreshTokenSeal.sealed(Self.token, userID: "alice", clientID: "com.example.app", with: Self.key)
        let second = AppleRefreshTokenSeal.sealed(Self.token, userID: "alice", clientID: "com.example.app", with: Self.key)
        #expect(first != second)
        let bytes = Array(Self.token.utf8)
        for box in [first, second] {
            #expect(!box.windowsOfCount(8).contains { Array($0) == Array(bytes.prefix(8)) })
        }
    }

    /// Mallory can write the database but not read the server's key. He moves Alice's
    /// sealed token onto his own row, or onto another client id, hoping the server will
    /// use it for him; bound to Alice and her client, it opens nowhere else.
    @Test func aTokenMovedToAnotherAccountOrClientDoesNotOpen() {
        let alices = AppleRefreshTokenSeal.sealed(Self.token, userID: "alice", clientID: "com.example.app", with: Self.key)
        #expect(AppleRefreshTokenSeal.opened(alices, userID: "mallory", clientID: "com.example.app", with: Self.key) == nil)
        #expect(AppleRefreshTokenSeal.opened(alices, userID: "alice", clientID: "com.example.web", with: Self.key) == nil)
        #expect(AppleRefreshTokenSeal.opened(alices, userID: "alicecom.example", clientID: ".app", with: Self.key) == nil, "parts are framed")
        #expect(AppleRefreshTokenSeal.opened(alices, userID: "alice", clientID: "com.example.app", with: OutboxKey(secret: Array(repeating: 6, count: 32))!) == nil)
    }

    /// Another secret sealed under the same key (a TOTP secret) never opens as a token.
    @Test func aTOTPSecretDoesNotOpenAsAToken() {
        let secret = TOTP.generate().sealed(for: "alice", with: Self.key)
        #expect(AppleRefreshTokenSeal.opened(secret, userID: "alice", clientID: "", with: Self.key) == nil)
    }
}
