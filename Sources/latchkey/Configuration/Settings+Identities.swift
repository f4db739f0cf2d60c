import FoundationEssentials
import LatchkeyCore

/// One entry of `oidcProviders`: `{"name": "okta", "issuer": "https://…", "clientIDs": ["…"]}`.
struct OIDCProviderSetting: Sendable, Decodable, Equatable {
    let name: String
    let issuer: String
    let clientIDs: [String]

    static let expected = #"a JSON list such as [{"name": "okta", "issuer": "https://example.okta.com", "clientIDs": ["app-id"]}]: "#
        + "names of lower-case letters, digits and '-' (not apple or google, each once), https issuers without a trailing slash, at least one client id each"

    /// The JSON list, checked: a name must be a path segment of `/v1/auth/idp/{provider}`
    /// that the built-in providers do not take.
    static func parse(_ text: String) throws(SettingValueError) -> [OIDCProviderSetting] {
        // An empty list in the config file arrives as empty text.
        if text.trimmingWhitespace().isEmpty { return [] }
        guard let providers = try? JSONDecoder().decode([OIDCProviderSetting].self, from: Data(text.utf8)) else {
            throw SettingValueError(expected: expected)
        }
        let names = providers.map(\.name)
        guard Set(names).count == names.count,
              providers.allSatisfy({ provider in
                  !provider.name.isEmpty && provider.name.utf8.count <= 32 && !["apple", "google"].contains(provider.name)
                      && provider.name.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-") }
                      && SettingSpec.isHTTPSBase(provider.issuer) && !provider.clientIDs.isEmpty && provider.clientIDs.allSatisfy { !$0.isEmpty }
              })
        else { throw SettingValueError(expected: expected) }
        return providers
    }
}

extension SettingSpec {
    /// An `https://` URL without a trailing slash: an issuer, or a base others are put under.
    static func httpsBase(_ key: String, _ path: WritableKeyPath<Settings, String> & Sendable) -> SettingSpec {
        SettingSpec(key: key) { settings, text throws(SettingValueError) in
            guard isHTTPSBase(text) else { throw SettingValueError(expected: "an https:// URL without a trailing slash") }
            settings[keyPath: path] = text
        }
    }

    static func isHTTPSBase(_ text: String) -> Bool {
        text.utf8.starts(with: "https://".utf8) && text.utf8.count > "https://".utf8.count && !text.hasSuffix("/")
            && text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }
}

extension Settings {
    /// The sign-in providers configured: Apple and Google when their client ids are set,
    /// then each of `oidcProviders`.
    var identityProviders: [IdentityProvider] {
        var providers: [IdentityProvider] = []
        if !appleClientIDs.isEmpty { providers.append(.apple(baseURL: appleBaseURL, clientIDs: appleClientIDs)) }
        if !googleClientIDs.isEmpty { providers.append(.google(issuer: googleIssuer, clientIDs: googleClientIDs)) }
        providers += oidcProviders.map { IdentityProvider.openIDConnect(name: $0.name, issuer: $0.issuer, clientIDs: $0.clientIDs) }
        return providers
    }
}
