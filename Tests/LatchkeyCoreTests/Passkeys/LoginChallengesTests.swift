@testable import LatchkeyCore
import Testing

/// Sign-in challenges carry their expiry under the server's MAC: the server that made one
/// takes it back until it expires, and nothing else passes for one.
@Suite struct LoginChallengesTests {
    static let challenges = LoginChallenges(refreshKey: RefreshTokenKey(secret: Array(repeating: 7, count: 32)))

    @Test func aChallengeIsTakenBackUntilItExpires() {
        let made = Self.challenges.make(now: 1000)
        #expect(made.count == 72)
        #expect(Self.challenges.expiry(of: made, now: 1000) == 1300)
        #expect(Self.challenges.expiry(of: made, now: 1299) == 1300)
        #expect(Self.challenges.expiry(of: made, now: 1300) == nil, "five minutes, then gone")
        #expect(Self.challenges.make(now: 1000) != made, "each one fresh")
    }

    /// A client that moves the expiry forward, flips a bit of the nonce, or brings another
    /// server's challenge (another refresh key) or a registration's 32 random bytes.
    @Test func nothingElsePassesForAChallenge() {
        let made = Self.challenges.make(now: 1000)
        var later = made
        later[39] &+= 100
        var flipped = made
        flipped[0] ^= 1
        let other = LoginChallenges(refreshKey: RefreshTokenKey(secret: Array(repeating: 8, count: 32))).make(now: 1000)
        for forged in [later, flipped, other, Array(made.prefix(32)), made + [0]] {
            #expect(Self.challenges.expiry(of: forged, now: 1000) == nil)
        }
    }
}
