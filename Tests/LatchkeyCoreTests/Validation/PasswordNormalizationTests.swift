import Foundation
@testable import LatchkeyCore
import Testing
import TestSupport

/// NFKC without ICU, checked against Python's `unicodedata2` at the same Unicode version
/// (16.0, the standard library's) for every assigned code point on its own, and for
/// sequences where ordering and composition matter.
@Suite struct PasswordNormalizationTests {
    @Test func asciiIsItsOwnNormalForm() {
        #expect(PasswordNormalization.nfkc("correct horse battery 42!") == "correct horse battery 42!")
    }

    @Test func theSamePasswordTypedOnTwoKeyboardsIsTheSamePassword() {
        #expect(PasswordNormalization.nfkc("Ｐａｓｓｗｏｒｄ") == "Password")  // full-width
        #expect(PasswordNormalization.nfkc("\u{FB01}sh") == "fish")  // the "fi" ligature
        #expect(PasswordNormalization.nfkc("cafe\u{0301}") == "caf\u{E9}")  // decomposed é
        #expect(PasswordNormalization.nfkc("\u{212B}ngstr\u{F6}m") == "\u{C5}ngstr\u{F6}m")  // ANGSTROM SIGN
        #expect(PasswordNormalization.nfkc("\u{1100}\u{1161}\u{11A8}") == "\u{AC01}")  // Hangul jamo compose
    }

    @Test func everyAssignedCodePointAndTrickySequencesMatchPython() throws {
        let script = #"""
        import json, sys
        import unicodedata2 as u
        assert u.unidata_version == "16.0.0", u.unidata_version
        cases = [chr(c) for c in range(0x110000)
                 if not 0xD800 <= c <= 0xDFFF and u.category(chr(c)) not in ("Cn", "Cs", "Co")]
        cases += ["a\u0328\u0301", "e\u0301\u0323", "\u1E9B\u0323", "\uFB01\u0301", "\u3131\u314F",
                  "\u1100\u1161\u11A8x", "\u0041\u030A\u0328", "\u2126\u0301", "\uFF76\uFF9E", "\u3300\u2460"]
        print(json.dumps([[c, u.normalize("NFKC", c)] for c in cases]))
        """#
        let output = try runPython(script)
        let pairs = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String]])
        #expect(pairs.count > 150_000, "Python listed too few code points: \(pairs.count)")
        var mismatches: [String] = []
        for pair in pairs where pair.count == 2 {
            let ours = PasswordNormalization.nfkc(pair[0])
            // Scalars, not String ==: canonical equivalence would hide a missing composition.
            if !ours.unicodeScalars.elementsEqual(pair[1].unicodeScalars) {
                mismatches.append(pair[0].unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " "))
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) differ from Python, e.g. \(mismatches.prefix(10))")
    }
}
