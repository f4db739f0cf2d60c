import LatchkeyCore

extension Settings {
    /// The WebAuthn relying party passkeys are made for: each part as configured, else the
    /// public URL's host, productName and the public URL's origin.
    func relyingParty(boundPort: Int) -> RelyingParty {
        let publicURL = resolvedPublicURL(boundPort: boundPort)
        let name = webAuthnRPName ?? productName
        let served = RelyingParty.serving(publicURL: publicURL, name: name)
        return RelyingParty(
            id: webAuthnRPID ?? served?.id ?? host, name: name, origins: webAuthnOrigins ?? served?.origins ?? []
        )
    }
}
