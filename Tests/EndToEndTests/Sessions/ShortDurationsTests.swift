import Foundation
import Testing
import TestSupport

extension Accounts {
    /// Every duration accepts values from 1 s (with a warning), so a lifetime can be
    /// watched running out in a test instead of trusted.
    @Suite struct ShortDurations {
        @Test func aOneSecondAccessTokenStartsWithAWarningAndExpiresWithinTheLeeway() throws {
            let server = try AccountServer(["--access-token-ttl", "1"])
            defer { server.stop() }
            #expect(server.process.output.contains("accessTokenTTL is 1 s, unusually short"))
            let account = try server.signUp("ttl@example.com", "short.lived")
            #expect(try server.me(account.accessToken).status == 200)
            // exp = iat + 1, leeway 1 s: by iat + 3 s the token is refused whatever the
            // rounding of the seconds.
            sleep(3)
            let expired = try server.me(account.accessToken)
            #expect(expired.status == 401)
            #expect(expired["code"] as? String == "TOKEN_EXPIRED")
        }
    }
}
