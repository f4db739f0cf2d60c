extension CoreServices {
    /// The keys access tokens are signed and checked with, for the routes that publish
    /// their public halves.
    public var keyring: CurrentKeyring { verifier.keys }
}
