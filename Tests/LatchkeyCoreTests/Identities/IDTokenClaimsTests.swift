@testable import LatchkeyCore
import Testing

/// The claims of a provider's ID token as Google and Apple write them, and what is not an
/// ID token's claims (a claim of another type) refused as malformed, not read as absent.
@Suite struct IDTokenClaimsTests {
    private let google = IdentityProvider.google(issuer: "https://accounts.google.com", clientIDs: ["web.apps", "ios.apps"])
    private let apple = IdentityProvider.apple(baseURL: "https://appleid.apple.com", clientIDs: ["com.example.app"])
    private let now: Int64 = 1_800_000_000

    private func check(_ json: String, provider: IdentityProvider? = nil, nonce: String? = nil) -> Result<VerifiedIdentity, IDTokenFailure> {
        IDTokenClaims.check(payload: Array(json.utf8), provider: provider ?? google, bodyNonce: nonce, now: now)
    }

    private func failure(_ json: String, provider: IdentityProvider? = nil, nonce: String? = nil) -> IDTokenFailure? {
        if case .failure(let failure) = check(json, provider: provider, nonce: nonce) { failure } else { nil }
    }

    @Test func readsGooglesForm() throws {
        let identity = try check(#"{"iss":"accounts.google.com","aud":"ios.apps","sub":"1234","iat":1799999990,"exp":1800003590,"email":"a@example.com","email_verified":true,"amr":["pwd","mfa"]}"#).get()
        #expect(identity.subject == "1234")
        #expect(identity.email == "a@example.com")
        #expect(identity.emailVerified)
        #expect(identity.multiFactor)
        #expect(identity.clientID == "ios.apps")
    }

    /// Apple: `aud` may be an array, `email_verified` a string, times with a fraction.
    @Test func readsApplesForm() throws {
        let identity = try check(
            #"{"iss":"https://appleid.apple.com","aud":["other","com.example.app"],"sub":"001.abc","iat":1799999990.5,"exp":1800000100.25,"email":"x@privaterelay.appleid.com","email_verified":"true","nonce":null}"#,
            provider: apple).get()
        #expect(identity.clientID == "com.example.app")
        #expect(identity.emailVerified)
        #expect(!identity.multiFactor)
        let unverified = try check(
            #"{"iss":"https://appleid.apple.com","aud":"com.example.app","sub":"001.abc","exp":1800000100,"email":"x@example.com","email_verified":"false"}"#,
            provider: apple).get()
        #expect(!unverified.emailVerified)
    }

    @Test func aClaimOfAnotherTypeIsMalformed() {
        let valid = #""iss":"https://accounts.google.com","aud":"web.apps","exp":1800000100"#
        #expect(failure("{\(valid),\"sub\":1234}") == .malformed)
        #expect(failure("{\(valid),\"sub\":\"1\",\"amr\":\"mfa\"}") == .malformed)
        #expect(failure("{\(valid),\"sub\":\"1\",\"email\":[\"a@example.com\"]}") == .malformed)
        #expect(failure("{\(valid),\"sub\":\"1\",\"iat\":\"1799999990\"}") == .malformed)
        #expect(failure(#"{"iss":"https://accounts.google.com","aud":[1],"sub":"1","exp":1800000100}"#) == .malformed)
        #expect(failure(#"{"iss":"https://accounts.google.com","aud":"web.apps","sub":"1"}"#) == .malformed, "no exp")
        #expect(failure("{\(valid),\"sub\":\"1\",\"email\":\"a@example.com\",\"email_verified\":1}") == .malformed)
        #expect(failure(#"["iss", "aud", "sub", "exp"]"#) == .malformed, "JSON, but not an object")
    }

    /// A time too large for a Double reads as infinity: a token that never expires.
    @Test func aTimeBeyondADoubleIsMalformed() {
        #expect(failure(#"{"iss":"https://accounts.google.com","aud":"web.apps","sub":"1","exp":1e400}"#) == .malformed)
        #expect(failure(#"{"iss":"https://accounts.google.com","aud":"web.apps","sub":"1","exp":1800000100,"nbf":-1e400}"#) == .malformed)
    }

    /// `null` is an absent claim: an `aud` of null names no client.
    @Test func aNullClaimIsAbsent() {
        #expect(failure(#"{"iss":"https://accounts.google.com","aud":null,"sub":"1","exp":1800000100}"#) == .audience)
        #expect(failure(#"{"iss":"https://accounts.google.com","aud":"web.apps","sub":"1","exp":1800000100,"amr":null,"email":null}"#) == nil)
    }

    /// A claim named twice counts by its last value (RFC 7519 §4 lets a parser take the
    /// lexically last member), so an earlier `aud` of this app does not make the token its.
    @Test func aClaimNamedTwiceCountsByItsLastValue() {
        #expect(failure(#"{"iss":"https://accounts.google.com","aud":"web.apps","aud":"other","sub":"1","exp":1800000100}"#) == .audience)
        #expect(failure(#"{"iss":"https://accounts.google.com","aud":"other","aud":"web.apps","sub":"1","exp":1800000100}"#) == nil)
    }

    @Test func eachCheckAnswersItsOwnFailure() {
        #expect(failure(#"{"iss":"https://evil.example","aud":"web.apps","sub":"1","exp":1800000100}"#) == .issuer)
        #expect(failure(#"{"iss":"https://accounts.google.com","aud":["a","b"],"sub":"1","exp":1800000100}"#) == .audience)
        #expect(failure(#"{"iss":"https://accounts.google.com","aud":"web.apps","sub":"1","exp":1799990000}"#) == .expired)
        #expect(failure(#"{"iss":"https://accounts.google.com","aud":"web.apps","sub":"1","exp":1800000100,"nonce":"n1"}"#, nonce: "n2") == .nonce)
        #expect(failure(#"{"iss":"https://accounts.google.com","aud":"web.apps","sub":"1","exp":1800000100,"nonce":"n1"}"#, nonce: "n1") == nil)
    }
}
