import AuthCrypto
@testable import LatchkeyCore
import Foundation
import Testing

@Suite struct RecoveryCodesTests {
    static let crockford = Set("0123456789abcdefghjkmnpqrstvwxyz".utf8)

    @Test func tenCodesOfFifteenUnambiguousSymbolsInThreeGroups() {
        let set = RecoveryCodes.generate(for: "user-a")
        #expect(set.codes.count == 10)
        #expect(set.hashes.count == 10)
        #expect(Set(set.codes).count == 10)
        for code in set.codes {
            let groups = code.split(separator: "-", omittingEmptySubsequences: false)
            #expect(groups.map(\.count) == [5, 5, 5], "\(code)")
            #expect(groups.joined().utf8.allSatisfy(Self.crockford.contains), "\(code)")
        }
        // 15 symbols of 32: 75 bits, at least the contract's 50.
        #expect(Double(RecoveryCodes.symbolCount) * log2(Double(RecoveryCodes.alphabet.count)) >= 50)
        #expect(Set(RecoveryCodes.alphabet).count == 32)
    }

    @Test func eachCodeMatchesItsOwnHashAndNoOther() {
        let set = RecoveryCodes.generate(for: "user-a")
        for (index, code) in set.codes.enumerated() {
            #expect(RecoveryCodes.match(Array(code.utf8), for: "user-a", among: set.hashes) == index)
        }
        #expect(RecoveryCodes.match(Array("00000-00000-00000".utf8), for: "user-a", among: set.hashes) == nil)
    }

    @Test func typingIsForgivingOfCaseDashesSpacesAndLookalikes() {
        let set = RecoveryCodes.generate(for: "user-a")
        let code = set.codes[3]
        let squeezed = code.replacingOccurrences(of: "-", with: "")
        let typed = [
            code.uppercased(), squeezed, " " + squeezed + " ",
            squeezed.map { String($0) }.joined(separator: " "),
            code.replacingOccurrences(of: "-", with: " - "),
            code.replacingOccurrences(of: "0", with: "O").replacingOccurrences(of: "1", with: "l"),
            code.replacingOccurrences(of: "1", with: "I"),
        ]
        for text in typed {
            #expect(RecoveryCodes.match(Array(text.utf8), for: "user-a", among: set.hashes) == 3, "\(text)")
        }
    }

    @Test func refusesInputThatIsNoCodeBeforeHashing() {
        let rejected: [(String, [UInt8])] = [
            ("empty", []),
            ("one symbol short", Array("abcde-abcde-abcd".utf8)),
            ("one symbol long", Array("abcde-abcde-abcdef".utf8)),
            ("a u, which the alphabet leaves out", Array("abcde-abcde-abcdu".utf8)),
            ("an underscore", Array("abcde_abcde_abcde".utf8)),
            ("a tab", Array("abcde\tabcde-abcde".utf8)),
            ("non-ASCII", Array("abcdé-abcde-abcde".utf8)),
            ("too long even if mostly dashes", [UInt8](repeating: UInt8(ascii: "-"), count: 65)),
        ]
        for (name, bytes) in rejected {
            #expect(RecoveryCodes.normalised(bytes) == nil, "\(name)")
        }
        #expect(RecoveryCodes.normalised(Array("ABCDE-fghjk-MNPQR".utf8)) == Array("abcdefghjkmnpqr".utf8))
    }

    /// The table holds hashes, salted with the user: no code appears in it, and two users
    /// given the same code (as if by chance) store different hashes, so one cracked table
    /// entry says nothing about another account.
    @Test func storesOnlyHashesSaltedWithTheUser() {
        let set = RecoveryCodes.generate(for: "user-a")
        for (code, hash) in zip(set.codes, set.hashes) {
            #expect(hash.count == 32)
            let symbols = Array(code.replacingOccurrences(of: "-", with: "").utf8)
            #expect(hash != SHA256.hash(symbols), "not the bare SHA-256 of the code")
            #expect(!hash.windowsOfCount(symbols.count).contains { Array($0) == symbols })
        }
        let symbols = Array("abcdefghjkmnpqr".utf8)
        #expect(RecoveryCodes.hash(symbols, userID: "user-a") != RecoveryCodes.hash(symbols, userID: "user-b"))
    }

    /// Mallory copies his own recovery-code hashes onto Alice's row (he can write the
    /// database but has not got Alice's codes). His codes, which he knows, do not match
    /// there: the hashes were made for his user id.
    @Test func aHashCopiedToAnotherUsersRowDoesNotMatch() {
        let mallorys = RecoveryCodes.generate(for: "mallory")
        #expect(RecoveryCodes.match(Array(mallorys.codes[0].utf8), for: "alice", among: mallorys.hashes) == nil)
        #expect(RecoveryCodes.match(Array(mallorys.codes[0].utf8), for: "alice-7", among: mallorys.hashes) == nil, "an id of the same length")
        #expect(RecoveryCodes.match(Array(mallorys.codes[0].utf8), for: "mallory", among: mallorys.hashes) == 0)
    }

    @Test func neverShowsItsCodesWhenInterpolated() {
        let set = RecoveryCodes.generate(for: "user-a")
        #expect("\(set)" == "RecoveryCodes(10 codes, redacted)")
    }
}
