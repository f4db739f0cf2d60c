/// What the engine tells its observer about each answer it writes (access log, metrics):
/// the route's template, never the raw path or query, which may carry tokens.
public struct CompletedRequest: Sendable {
    /// `-` when the head could not be read.
    public let method: String
    /// The matched route's pattern (`/v1/users/{id}`); `-` when no route answered (404,
    /// 405, a malformed request, a timeout).
    public let route: String
    public let status: Int
    /// The body's length as framed; nil for a stream.
    public let bodyBytes: Int?
    /// From the end of the request head to the answer being queued (for a stream, its
    /// head), in nanoseconds.
    public let nanoseconds: UInt64
    public let requestID: String
    /// The peer's address, and what a proxy in front said about the client (every
    /// `X-Forwarded-For` line, joined with commas).
    public let remoteAddress: String
    public let forwardedFor: String?
    public let eventLoopIndex: Int
}
