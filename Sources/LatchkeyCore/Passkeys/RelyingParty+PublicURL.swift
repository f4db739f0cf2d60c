extension RelyingParty {
    /// The party a server is when nothing is configured: the host of its public URL as
    /// the RP ID and that URL's origin (scheme, host and port, lower case, as browsers
    /// send it) as the one origin. Nil for a URL without a host.
    public static func serving(publicURL: String, name: String) -> RelyingParty? {
        guard let schemeEnd = publicURL.firstRange(of: "://") else { return nil }
        let scheme = publicURL[..<schemeEnd.lowerBound].lowercased()
        var authority = publicURL[schemeEnd.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host: Substring = authority.first == "["
            ? authority.prefix { $0 != "]" }.dropFirst()
            : authority.prefix { $0 != ":" }
        guard !host.isEmpty else { return nil }
        // A browser leaves the scheme's default port out of the origin it reports.
        var shownAuthority = authority.lowercased()
        for (defaultScheme, port) in [("https", ":443"), ("http", ":80")] where scheme == defaultScheme && shownAuthority.hasSuffix(port) {
            shownAuthority.removeLast(port.count)
        }
        let origin = scheme + "://" + shownAuthority
        return RelyingParty(id: host.lowercased(), name: name, origins: [origin])
    }
}
