import LatchkeyAPI
import LatchkeyCore

extension Settings {
    /// The API's view of the settings. The issuer defaults to the public URL, which with
    /// port 0 is only known once bound.
    func serviceOptions(boundPort: Int) -> ServiceOptions {
        ServiceOptions(
            policy: AccountsPolicy(
                passwordIterations: passwordIterations, accessTokenTTL: Int64(accessTokenTTL),
                sessionIdleTimeout: Int64(sessionIdleTimeout), refreshReuseGrace: Int64(refreshReuseGrace),
                issuer: issuer ?? resolvedPublicURL(boundPort: boundPort), audience: audience,
                reservedDisplayNames: ReservedDisplayNames(reservedDisplayNames), rateLimitsEnabled: rateLimitsEnabled,
                loginMaxFailures: loginMaxFailures, loginFailureWindow: Int64(loginFailureWindow)
            ),
            ipRatePerMinute: ipRatePerMinute, trustedProxies: trustedProxies,
            eventLoops: eventLoops, hashingThreads: eventLoops
        )
    }
}
