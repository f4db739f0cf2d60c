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

    private static let key = HMACKey(Array(repeating: 9, count: 32))
    private static let seeds = RefreshSeeds(key: Array(repeating: 5, count: 32))
    private static let sessionID = String(repeating: "ab", count: 16)

    /// The token's bytes, computed apart from the server (Python's hmac and base64 over the
    /// documented messages), so the format cannot drift while tokens issued before a change
    /// stay valid after it.
    @Test(arguments: [
        (3, "lk1.abababababababababababababababab.3.nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvk"),
        (999_999_999_999_999_999, "lk1.abababababababababababababababab.999999999999999999.7o-ZSncdTHnygqPfu2GU7XU_11_p-mdLxSrQCoQZIVU"),
    ] as [(Int64, String)])
    func aTokenIsTheMACOfItsDocumentedMessage(generation: Int64, expected: String) throws {
        #expect(RefreshToken.make(sessionID: Self.sessionID, generation: generation, key: Self.key, seeds: Self.seeds) == expected)
        let token = try #require(RefreshToken(authenticating: expected, key: Self.key, seeds: Self.seeds))
        #expect(token.sessionID == Self.sessionID)
        #expect(token.generation == generation)
        #expect(token.seed == Self.seeds.seed(for: Self.sessionID))
    }

    /// One spelling per token: anything else, even around an authentic MAC, is refused.
    @Test(arguments: [
        "",
        "lk1",
        "lk1.",
        "lk2.abababababababababababababababab.3.nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvk",
        "LK1.abababababababababababababababab.3.nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvk",
        "lk1.ABABABABABABABABABABABABABABABAB.3.nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvk",
        "lk1.ababababababababababababababab.3.nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvk",
        "lk1.abababababababababababababababab.03.nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvk",
        "lk1.abababababababababababababababab.+3.nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvk",
        "lk1.abababababababababababababababab..nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvk",
        "lk1.abababababababababababababababab.3",
        "lk1.abababababababababababababababab.3.",
        "lk1.abababababababababababababababab.3.nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvk.",
        "lk1.abababababababababababababababab.3.nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvk=",
        "lk1.abababababababababababababababab.3.nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvl",
        "lk1.abababababababababababababababab.4.nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvk",
        "lk1.abababababababababababababababab.1000000000000000000.7o-ZSncdTHnygqPfu2GU7XU_11_p-mdLxSrQCoQZIVU",
        " lk1.abababababababababababababababab.3.nqLrZA-N9g0Fa5Cem_zyC4wI9pT-I6gRIxmee0NFmvk",
    ])
    func refusesEveryOtherSpelling(token: String) {
        #expect(RefreshToken(authenticating: token, key: Self.key, seeds: Self.seeds) == nil)
    }
}
