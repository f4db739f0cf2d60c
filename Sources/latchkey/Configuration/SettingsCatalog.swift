import AuthCrypto
import FoundationEssentials
import LatchkeyAPI
import LatchkeyCore
import Logging
import SMTP

/// The configuration table, in the order the README documents it.
enum SettingsCatalog {
    static let all: [SettingSpec] = [
        .string("host", \.host),
        .integer("port", 0...65535, \.port),
        .optionalString("publicURL", \.publicURL) { text in
            let lowered = text.lowercased()
            guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), URL(string: text)?.host != nil else {
                return "an absolute http:// or https:// URL"
            }
            return text.hasSuffix("/") ? "a URL without a trailing slash" : nil
        },
        .string("dataDir", \.dataDir),
        SettingSpec(key: "database") { settings, text throws(SettingValueError) in
            guard let database = DatabaseSetting(text) else {
                throw SettingValueError(expected: "sqlite, or a postgres://user:password@host:port/database URL")
            }
            settings.database = database
        },
        .integer("databasePoolSize", 2...1_000, \.databasePoolSize),
        .integer("eventLoops", 1...256, \.eventLoops),
        .integer("maxConnections", 1...1_000_000, \.maxConnections),
        .integer("maxConnectionsPerAddress", 1...1_000_000, \.maxConnectionsPerAddress),
        SettingSpec(key: "signingKeys") { settings, text throws(SettingValueError) in
            settings.signingKeys = try parseSigningKeys(text)
        },
        .optionalString("issuer", \.issuer),
        .string("audience", \.audience),
        .duration("accessTokenTTL", upTo: 86_400, usually: 60, \.accessTokenTTL),
        SettingSpec(key: "accessTokenAlgorithm") { settings, text throws(SettingValueError) in
            guard let algorithm = AccessTokenAlgorithm.allCases.first(where: { $0.rawValue.utf8.elementsEqual(text.utf8) }) else {
                throw SettingValueError(expected: "HS256 or ES256")
            }
            settings.accessTokenAlgorithm = algorithm
        },
        .duration("sessionIdleTimeout", upTo: 31_536_000, usually: 3_600, \.sessionIdleTimeout),
        .duration("sessionMaxLifetime", upTo: 315_360_000, usually: 86_400, \.sessionMaxLifetime),
        .integer("refreshReuseGrace", 0...300, \.refreshReuseGrace),
        .integer("passwordIterations", 1_000...10_000_000, \.passwordIterations),
        .integer("maxPictureBytes", 1024...104_857_600, \.maxPictureBytes),
        .duration("presenceTimeout", upTo: 86_400, usually: 10, \.presenceTimeout),
        .optionalString("smtpURL", \.smtpURL) { text in
            do throws(SMTPError) {
                _ = try SMTPEndpoint(url: text)
                return nil
            } catch .badURL(let why) {
                return "an smtp:// or smtps:// URL (\(why))"
            } catch {
                return "an smtp:// or smtps:// URL"
            }
        },
        .optionalBoolean("smtpRequireTLS", \.smtpRequireTLS),
        .optionalString("smtpCAFile", \.smtpCAFile),
        .string("mailFrom", \.mailFrom),
        .string("productName", \.productName),
        .boolean("rateLimitsEnabled", \.rateLimitsEnabled),
        .boolean("metricsEnabled", \.metricsEnabled),
        // Sent in a header, so visible ASCII only: any other byte could never match.
        .optionalString("metricsToken", \.metricsToken) { text in
            text.utf8.allSatisfy { (0x21...0x7E).contains($0) } ? nil : "visible ASCII characters, no spaces"
        },
        .boolean("accessLog", \.accessLog),
        .integer("auditRetentionDays", 1...36_500, \.auditRetentionDays),
        .integer("loginMaxFailures", 1...1_000, \.loginMaxFailures),
        .integer("accountMaxFailures", 1...100_000, \.accountMaxFailures),
        .duration("loginFailureWindow", upTo: 86_400, usually: 60, \.loginFailureWindow),
        .integer("ipRatePerMinute", 1...100_000, \.ipRatePerMinute),
        .list("trustedProxies", \.trustedProxies),
        SettingSpec(key: "corsOrigins") { settings, text throws(SettingValueError) in
            let origins = listItems(text)
            guard origins.allSatisfy({ $0 == "*" || isOrigin($0) }) else {
                throw SettingValueError(expected: "* or origins such as https://app.example.com (scheme, host and port only), separated by commas")
            }
            settings.corsOrigins = origins
        },
        SettingSpec(key: "appleAppIDs") { settings, text throws(SettingValueError) in
            let appIDs = listItems(text)
            guard appIDs.allSatisfy(isAppleAppID) else {
                throw SettingValueError(expected: "app ids such as ABCDE12345.com.example.app (the 10-character team id, a dot, the bundle id), separated by commas")
            }
            settings.appleAppIDs = appIDs
        },
        SettingSpec(key: "androidApps") { settings, text throws(SettingValueError) in
            var apps: [AppAssociation.AndroidApp] = []
            for item in listItems(text) {
                guard let app = androidApp(item) else {
                    throw SettingValueError(
                        expected: "package:fingerprint entries such as com.example.app:14:6D:…:B4 (the SHA-256 of the signing certificate, 32 hex pairs), separated by commas")
                }
                apps.append(app)
            }
            settings.androidApps = apps
        },
        SettingSpec(key: "appleTeamID") { settings, text throws(SettingValueError) in
            guard isAppleIdentifier(text) else { throw SettingValueError(expected: "the 10-character team id of your Apple developer account, such as ABCDE12345") }
            settings.appleTeamID = text
        },
        SettingSpec(key: "appleKeyID") { settings, text throws(SettingValueError) in
            guard isAppleIdentifier(text) else { throw SettingValueError(expected: "the 10-character id of the Sign in with Apple key, such as KEY1234567") }
            settings.appleKeyID = text
        },
        .optionalString("appleKeyFile", \.appleKeyFile),
        SettingSpec(key: "webAuthnRPID", apply: { settings, text throws(SettingValueError) in
            guard isRPID(text) else { throw SettingValueError(expected: "a domain such as example.com (lower case, no scheme, port or path)") }
            settings.webAuthnRPID = text
        }, spelledWords: ["webauthn", "RP", "ID"]),
        SettingSpec(key: "webAuthnRPName", apply: { settings, text throws(SettingValueError) in
            guard !text.isEmpty else { throw SettingValueError(expected: "a non-empty text") }
            settings.webAuthnRPName = text
        }, spelledWords: ["webauthn", "RP", "Name"]),
        SettingSpec(key: "webAuthnOrigins", apply: { settings, text throws(SettingValueError) in
            let origins = listItems(text)
            guard !origins.isEmpty, origins.allSatisfy(isWebAuthnOrigin) else {
                throw SettingValueError(
                    expected: "origins such as https://example.com, ios:bundle-id:com.example.app or android:apk-key-hash:<base64url>, separated by commas")
            }
            settings.webAuthnOrigins = origins
        }, spelledWords: ["webauthn", "Origins"]),
        .list("appleClientIDs", \.appleClientIDs),
        .httpsBase("appleBaseURL", \.appleBaseURL),
        .list("googleClientIDs", \.googleClientIDs),
        .httpsBase("googleIssuer", \.googleIssuer),
        SettingSpec(key: "oidcProviders", apply: { settings, text throws(SettingValueError) in
            settings.oidcProviders = try OIDCProviderSetting.parse(text)
        }, spelledWords: ["oidc", "Providers"]),
        .optionalString("outboundCAFile", \.outboundCAFile),
        .list("reservedDisplayNames", \.reservedDisplayNames),
        SettingSpec(key: "logLevel") { settings, text throws(SettingValueError) in
            guard let level = Logger.Level(rawValue: text.lowercased()) else {
                throw SettingValueError(expected: "one of trace, debug, info, notice, warning, error, critical")
            }
            settings.logLevel = level
        },
        SettingSpec(key: "logFormat") { settings, text throws(SettingValueError) in
            guard let format = LogFormat(rawValue: text.lowercased()) else { throw SettingValueError(expected: "text or json") }
            settings.logFormat = format
        },
        .duration("headerTimeout", upTo: 3_600, usually: 2, \.headerTimeout),
        .duration("bodyTimeout", upTo: 3_600, usually: 5, \.bodyTimeout),
        .integer("bodyMinRate", 1...1_073_741_824, \.bodyMinRate),
        .duration("idleTimeout", upTo: 86_400, usually: 5, \.idleTimeout),
        .integer("shutdownGracePeriod", 0...600, \.shutdownGracePeriod),
    ]

    /// A list setting's items: separated by commas or spaces.
    static func listItems(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
    }

    /// `TEAMID.bundle.id`: ten upper-case letters or digits, a dot, and a bundle id
    /// (letters, digits, dots and hyphens).
    static func isAppleAppID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count > 11, bytes[10] == UInt8(ascii: ".") else { return false }
        return bytes[..<10].allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
            && bytes[11...].allSatisfy { isASCIIAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    /// An Apple team id or key id: ten upper-case letters or digits.
    static func isAppleIdentifier(_ text: String) -> Bool {
        text.utf8.count == 10 && text.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x30...0x39).contains($0) }
    }

    /// `package.name:AA:BB:…`: a Java package name, then the certificate's SHA-256 as 32
    /// hex pairs (kept in upper case, as Android compares them).
    static func androidApp(_ text: String) -> AppAssociation.AndroidApp? {
        guard let colon = text.utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let package = String(text[..<colon])
        let fingerprint = String(text[text.index(after: colon)...]).uppercased()
        let pairs = fingerprint.split(separator: ":", omittingEmptySubsequences: false)
        guard !package.isEmpty, package.utf8.allSatisfy({ isASCIIAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") }),
              pairs.count == 32, pairs.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy(isHexDigit) }) else { return nil }
        return AppAssociation.AndroidApp(package: package, certificateFingerprint: fingerprint)
    }

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte)
    }

    /// `http://` or `https://`, a host, an optional port, nothing after: what a browser
    /// sends as `Origin`. Lower case, as browsers send it, or it would never match.
    static func isOrigin(_ text: String) -> Bool {
        for scheme in ["http://", "https://"] where text.utf8.starts(with: scheme.utf8) {
            let authority = text.utf8.dropFirst(scheme.utf8.count)
            return !authority.isEmpty && authority.allSatisfy { byte in
                (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                    || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
            }
        }
        return false
    }

    /// A WebAuthn RP ID: a domain (the public URL's host or a suffix of it), lower case as
    /// authenticators hash it, or a bare address for a server on a laptop.
    static func isRPID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ":")
        } && !text.hasPrefix(".") && !text.hasSuffix(".")
    }

    /// A web origin as browsers send it (`isOrigin`), or an app's: `ios:bundle-id:…` (what
    /// Apple's platforms put in client data) or `android:apk-key-hash:…`.
    static func isWebAuthnOrigin(_ text: String) -> Bool {
        if isOrigin(text) { return true }
        for prefix in ["ios:bundle-id:", "android:apk-key-hash:"] where text.utf8.starts(with: prefix.utf8) {
            let rest = text.utf8.dropFirst(prefix.utf8.count)
            return !rest.isEmpty && rest.allSatisfy { isASCIIAlphanumeric($0) || [UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_")].contains($0) }
        }
        return false
    }

    /// `kid:base64key[,kid:base64key…]`; each key at least 32 bytes.
    static func parseSigningKeys(_ text: String) throws(SettingValueError) -> [(id: String, secret: [UInt8])] {
        let expected = "kid:base64key pairs separated by commas, each key at least 32 bytes"
        var keys: [(id: String, secret: [UInt8])] = []
        for entry in text.split(separator: ",") {
            let parts = entry.trimmingWhitespace().split(separator: ":", maxSplits: 1)
            guard parts.count == 2, !parts[0].isEmpty,
                  let secret = Data(base64Encoded: String(parts[1])), secret.count >= 32 else {
                throw SettingValueError(expected: expected)
            }
            keys.append((String(parts[0]), Array(secret)))
        }
        guard !keys.isEmpty, Set(keys.map(\.id)).count == keys.count else { throw SettingValueError(expected: expected + ", ids unique") }
        return keys
    }
}
