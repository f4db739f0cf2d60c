@testable import LatchkeyCore
import Testing

/// When a challenge may still be answered, decided from its row alone.
@Suite struct MFAChallengeTests {
    static func row(expiresAt: Int64 = 1300, wrongCodes: Int = 0, used: Bool = false, epoch: Int64 = 2) -> MFAChallengeStore.Row {
        MFAChallengeStore.Row(userID: "u", accountKey: "ada@example.com", passwordEpoch: epoch, deviceID: nil,
                              expiresAt: expiresAt, wrongCodes: wrongCodes, used: used)
    }

    @Test func anUnusedChallengeIsOpenUntilItsLastSecond() {
        #expect(MFAChallenge.isOpen(Self.row(), now: 1299, passwordEpoch: 2))
        #expect(!MFAChallenge.isOpen(Self.row(), now: 1300, passwordEpoch: 2), "expired at expiresAt")
    }

    @Test func usedExhaustedOrOlderThanThePasswordIsClosed() {
        #expect(!MFAChallenge.isOpen(Self.row(used: true), now: 1000, passwordEpoch: 2))
        #expect(MFAChallenge.isOpen(Self.row(wrongCodes: 4), now: 1000, passwordEpoch: 2))
        #expect(!MFAChallenge.isOpen(Self.row(wrongCodes: 5), now: 1000, passwordEpoch: 2), "five wrong codes use it up")
        #expect(!MFAChallenge.isOpen(Self.row(epoch: 1), now: 1000, passwordEpoch: 2), "the password changed since the login")
    }

    @Test func tokensAre256BitsAndOnlyTheirShapeIsLookedUp() {
        let (challenge, hash) = MFAChallenge.make()
        #expect(challenge.token.utf8.count == 43)
        #expect(MFAChallenge.hash(of: challenge.token) == hash)
        #expect(MFAChallenge.make().challenge.token != challenge.token)
        #expect(MFAChallenge.hash(of: String(challenge.token.dropLast())) == nil)
        #expect(MFAChallenge.hash(of: challenge.token + "A") == nil)
        #expect(MFAChallenge.hash(of: String(repeating: "*", count: 43)) == nil, "not base64url")
        #expect(!"\(challenge)".contains(challenge.token), "a log line shows no token")
    }
}
