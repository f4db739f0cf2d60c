import LatchkeyAPI
import LatchkeyCore

extension Settings {
    /// The domain's rules. The issuer defaults to the public URL, which with port 0 is
    /// only known once bound.
    func accountsPolicy(boundPort: Int) -> AccountsPolicy {
        AccountsPolicy(
            passwordIterations: passwordIterations, accessTokenTTL: Int64(accessTokenTTL),
            sessionIdleTimeout: Int64(sessionIdleTimeout), sessionMaxLifetime: Int64(sessionMaxLifetime), refreshReuseGrace: Int64(refreshReuseGrace),
            issuer: issuer ?? resolvedPublicURL(boundPort: boundPort), audience: audience,
            reservedDisplayNames: ReservedDisplayNames(reservedDisplayNames), rateLimitsEnabled: rateLimitsEnabled,
            loginMaxFailures: loginMaxFailures, accountMaxFailures: accountMaxFailures, loginFailureWindow: Int64(loginFailureWindow),
            presenceTimeout: Int64(presenceTimeout)
        )
    }

    /// The API's settings, with the page text of `{dataDir}/templates/pages.txt`.
    func serviceOptions(boundPort: Int) throws -> ServiceOptions {
        ServiceOptions(
            ipRatePerMinute: ipRatePerMinute, trustedProxies: trustedProxies, eventLoops: eventLoops,
            pages: try PageText.load(overridesIn: dataDir + "/templates", productName: productName),
            maxPictureBytes: maxPictureBytes, metricsEnabled: metricsEnabled, metricsToken: metricsToken, accessLog: accessLog,
            accessLogOutput: AccessLineBuffer(format: logFormat),
            appAssociation: AppAssociation(appleAppIDs: appleAppIDs, androidApps: androidApps),
            publicURL: resolvedPublicURL(boundPort: boundPort)
        )
    }
}
