@testable import LatchkeyCore
import Foundation
import Testing

@Suite struct OTPAuthURITests {
    static let totp = TOTP(secret: Array("12345678901234567890".utf8))

    @Test func hasTheKeyURIFormatsFieldsInOrder() {
        #expect(Self.totp.otpauthURI(issuer: "Latchkey", account: "ada@example.com")
            == "otpauth://totp/Latchkey:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Latchkey&algorithm=SHA1&digits=6&period=30")
    }

    /// An issuer holding `:` must not move the split between issuer and account, and no
    /// character of either may end the label or start a parameter.
    @Test func percentEncodesSpacesColonsAtSignsAndUTF8() {
        let uri = Self.totp.otpauthURI(issuer: "Zoë & Co: Auth", account: "zoë+1@exämple.com")
        #expect(uri == "otpauth://totp/Zo%C3%AB%20%26%20Co%3A%20Auth:zo%C3%AB%2B1%40ex%C3%A4mple.com"
            + "?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Zo%C3%AB%20%26%20Co%3A%20Auth&algorithm=SHA1&digits=6&period=30")
    }

    /// Read back the way an app would: the label splits at its one literal `:`, and each
    /// part and parameter decodes to exactly what went in.
    @Test func decodesBackToWhatWentIn() throws {
        let issuer = "Ada's Shop: Beta / #1 ?&="
        let account = "ada lovelace@example.com"
        let components = try #require(URLComponents(string: Self.totp.otpauthURI(issuer: issuer, account: account)))
        #expect(components.scheme == "otpauth")
        #expect(components.host == "totp")
        let label = components.percentEncodedPath.dropFirst().split(separator: ":", omittingEmptySubsequences: false)
        #expect(label.count == 2)
        #expect(label.first?.removingPercentEncoding == issuer)
        #expect(label.last?.removingPercentEncoding == account)
        let items = try #require(components.queryItems)
        #expect(items.map(\.name) == ["secret", "issuer", "algorithm", "digits", "period"])
        #expect(items.first { $0.name == "issuer" }?.value == issuer)
        #expect(items.first { $0.name == "secret" }?.value == Self.totp.base32Secret)
    }

    @Test func leavesUnreservedCharactersAlone() {
        #expect(TOTP.percentEncoded("AZaz09-._~") == "AZaz09-._~")
        #expect(TOTP.percentEncoded("") == "")
        #expect(TOTP.percentEncoded("/?#[]!$'()*,;") == "%2F%3F%23%5B%5D%21%24%27%28%29%2A%2C%3B")
    }
}
