import AuthCrypto

/// This server as a WebAuthn relying party: the RP ID (a domain), its name, and the origins
/// whose client data it accepts (web origins as browsers send them; `ios:bundle-id:…` and
/// `android:apk-key-hash:…` for apps).
public struct RelyingParty: Sendable {
    public let id: String
    public let name: String
    public let origins: [String]
    /// SHA-256 of `id`: what authenticator data must begin with.
    let idHash: [UInt8]

    public init(id: String, name: String, origins: [String]) {
        self.id = id
        self.name = name
        self.origins = origins
        idHash = SHA256.hash(Array(id.utf8))
    }

    /// Compared byte for byte: an origin is a protocol token, and `String` equality would
    /// take a canonically equivalent spelling for it.
    func accepts(origin: [UInt8]) -> Bool {
        origins.contains { $0.utf8.elementsEqual(origin) }
    }
}
