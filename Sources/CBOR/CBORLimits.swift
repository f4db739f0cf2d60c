/// Bounds on what one read may cost. The defaults fit WebAuthn with room to spare: an
/// attestation object with a certificate chain is a few kilobytes, its maps hold a handful
/// of entries and nest three deep.
public struct CBORLimits: Sendable, Equatable {
    /// Containers inside containers; a top-level array or map is depth 1.
    public var maxDepth: Int
    /// Elements of one array, or key/value pairs of one map.
    public var maxItemsPerContainer: Int
    /// The whole input handed to one read, including what follows a prefix's item.
    public var maxInputBytes: Int

    public init(maxDepth: Int = 16, maxItemsPerContainer: Int = 256, maxInputBytes: Int = 64 * 1024) {
        self.maxDepth = maxDepth
        self.maxItemsPerContainer = maxItemsPerContainer
        self.maxInputBytes = maxInputBytes
    }
}
