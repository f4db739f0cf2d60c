import AuthCrypto
import Foundation
@testable import LatchkeyCore
import Testing

/// The client secret's claims and lifetime; that Apple's way of checking it accepts it is
/// `AppleTokenEndpointTests` (PyJWT in the fake Apple).
@Suite struct AppleClientSecretsTests {
    let secrets = AppleClientSecrets(teamID: "TEAM123456", keyID: "KEY7654321", key: P256PrivateKey.generate(), audience: "https://appleid.apple.com/")

    static func part(_ token: String, _ index: Int) throws -> [String: Any] {
        var text = String(token.split(separator: ".")[index]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try #require(Data(base64Encoded: text))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theSecretNamesTeamKeyAudienceAndClientAndLivesFiveMinutes() throws {
        let secret = secrets.secret(for: "com.example.app", now: 1_800_000_000)
        let header = try Self.part(secret, 0)
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "KEY7654321")
        let claims = try Self.part(secret, 1)
        #expect(claims["iss"] as? String == "TEAM123456")
        #expect(claims["sub"] as? String == "com.example.app")
        #expect(claims["aud"] as? String == "https://appleid.apple.com", "the base URL, without its trailing slash")
        #expect(claims["iat"] as? Int == 1_800_000_000)
        #expect(claims["exp"] as? Int == 1_800_000_300)
    }

    /// One signature per client id while the secret has more than a minute to live.
    @Test func aSecretIsReusedUntilAMinuteBeforeItEnds() {
        let first = secrets.secret(for: "com.example.app", now: 1_800_000_000)
        #expect(secrets.secret(for: "com.example.app", now: 1_800_000_239) == first)
        #expect(secrets.secret(for: "com.example.web", now: 1_800_000_000) != first, "each client id its own")
        #expect(secrets.secret(for: "com.example.app", now: 1_800_000_240) != first)
    }
}
