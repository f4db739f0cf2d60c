import Testing
@testable import HTTPServer

/// `Connection` options and `Expect` are protocol tokens: compared on the bytes, ASCII
/// letters folded, nothing mapped as Unicode (U+212A KELVIN SIGN lower-cases to "k").
@Suite struct ListFieldTests {
    @Test func anHTTP10KeepAliveSpelledWithAKelvinSignIsNotKeepAlive() {
        let head = requestHead([("Connection", "\u{212A}eep-alive")], version: .http1_0)
        #expect(!head.wantsKeepAlive)
    }

    @Test func connectionOptionsAreFoundAnywhereInTheListInAnyASCIICase() {
        #expect(requestHead([("Connection", "Keep-Alive")], version: .http1_0).wantsKeepAlive)
        #expect(!requestHead([("Host", "a"), ("Connection", "upgrade, CLOSE")]).wantsKeepAlive)
        #expect(!requestHead([("Host", "a"), ("Connection", "upgrade"), ("Connection", " close ")]).wantsKeepAlive)
        #expect(requestHead([("Host", "a"), ("Connection", "clos\u{0065}\u{0301}")]).wantsKeepAlive)
    }

    @Test func onlyTheBytesOf100ContinueAskForContinue() {
        #expect(requestHead([("Host", "a"), ("Expect", " 100-Continue ")]).expectsContinue)
        let lookalike = requestHead([("Host", "a"), ("Expect", "100-continue\u{0301}")])
        #expect(!lookalike.expectsContinue)
        #expect(lookalike.hasUnsupportedExpectation)
    }
}
