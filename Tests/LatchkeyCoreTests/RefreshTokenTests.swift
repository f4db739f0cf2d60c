import AuthCrypto
@testable import LatchkeyCore
import Testing

@Suite struct RefreshTokenTests {
    /// A token that reaches a log line or a test's failure message names its session and
    /// generation; its seed, which with the refresh key makes every token of the session,
    /// is not printed.
    @Test func aPrintedTokenShowsNoSeed() throws {
        let key = HMACKey(Array(repeating: 9, count: 32))
        let seeds = RefreshSeeds(key: Array(repeating: 5, count: 32))
        let sessionID = String(repeating: "ab", count: 16)
        let token = try #require(RefreshToken(authenticating: RefreshToken.make(sessionID: sessionID, generation: 3, key: key, seeds: seeds), key: key, seeds: seeds))
        let seed = seeds.seed(for: sessionID)
        for printed in [String(describing: token), String(reflecting: token), "\(token)"] {
            #expect(printed == "RefreshToken(session: \(sessionID), generation: 3)")
            #expect(!printed.contains(seed.map(String.init).joined(separator: ", ")))
        }
    }
}
