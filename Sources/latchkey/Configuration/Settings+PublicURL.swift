import Glibc

extension Settings {
    /// A line for the start-up log when the public URL names the unspecified address
    /// (`0.0.0.0`, `::`), which no client can reach. That is what `http://{host}:{port}`
    /// gives when the server listens on every interface and publicURL is not set, as in
    /// the container: the URL would go into every emailed link and be the tokens' issuer.
    func unroutablePublicURLWarning(boundPort: Int) -> String? {
        let url = resolvedPublicURL(boundPort: boundPort)
        guard let host = Self.host(ofURL: url), Self.isUnspecifiedAddress(host) else { return nil }
        return "publicURL \(url) is no address a client can reach: emailed links and the token issuer would point there;"
            + " set publicURL (LATCHKEY_PUBLIC_URL) to the URL clients use"
    }

    /// The host of `scheme://[userinfo@]host[:port][/...]`, without an IPv6 address's brackets.
    private static func host(ofURL url: String) -> Substring? {
        guard let schemeEnd = url.firstRange(of: "://")?.upperBound else { return nil }
        var authority = url[schemeEnd...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.first == "[" {
            return authority.dropFirst().prefix { $0 != "]" }
        }
        return authority.prefix { $0 != ":" }
    }

    /// True for an IPv4 or IPv6 address of all zero bits, in any spelling inet_pton reads.
    private static func isUnspecifiedAddress(_ host: Substring) -> Bool {
        var address = [UInt8](repeating: 0xFF, count: 16)
        for family in [AF_INET, AF_INET6] where inet_pton(family, String(host), &address) == 1 {
            let length = family == AF_INET ? 4 : 16
            return address.prefix(length).allSatisfy { $0 == 0 }
        }
        return false
    }
}
