/// Size limits for the request line and header section (RFC 9112 leaves them to the server).
public struct HeadLimits: Sendable, Equatable {
    public var maxRequestLineBytes: Int
    public var maxHeaderSectionBytes: Int
    public var maxFieldCount: Int

    public init(maxRequestLineBytes: Int = 8 * 1024, maxHeaderSectionBytes: Int = 32 * 1024, maxFieldCount: Int = 100) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderSectionBytes = maxHeaderSectionBytes
        self.maxFieldCount = maxFieldCount
    }
}
