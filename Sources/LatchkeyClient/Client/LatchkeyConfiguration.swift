import Foundation

/// How a `Latchkey` client times its requests, refreshes and reconnects. The defaults
/// suit an app talking to a server on its defaults; tests shorten them.
public struct LatchkeyConfiguration: Sendable {
    /// Seconds a request may wait for the server without receiving anything.
    public var requestTimeout: TimeInterval = 30

    /// Refresh the access token this long before it expires, when the next call is made
    /// (at most half the token's lifetime ahead, so a short-lived token is not refreshed on
    /// every call). A call that still meets an expired token refreshes on its 401.
    public var refreshAhead: TimeInterval = 60

    /// How long one refresh keeps retrying after network failures, counted from its first
    /// attempt. Keep it under the server's `refreshReuseGrace` (10 s by default): within
    /// the grace a retried refresh answers the same next token, after it the server takes
    /// the old token for a stolen one and ends the session.
    public var refreshRetryWindow: TimeInterval = 8

    /// Seconds one refresh attempt may take: short, so a lost answer leaves time for a
    /// retry within the grace.
    public var refreshAttemptTimeout: TimeInterval = 4

    /// The pauses between refresh attempts.
    public var refreshBackoff = Backoff(initial: 0.25, maximum: 2)

    /// The pauses before a presence stream connects again after a drop; the first pause
    /// after a connection that worked is the shortest again.
    public var presenceBackoff = Backoff(initial: 0.5, maximum: 30)

    /// The server sends `: keepalive` every 15 s on a presence stream; this long without a
    /// byte means the connection is dead and is replaced.
    public var presenceIdleTimeout: TimeInterval = 45

    /// Sent as `User-Agent`; the server shows it in the sessions list ("where you're
    /// signed in"), so name the app and device.
    public var userAgent = "LatchkeyClient/0.1"

    public init() {}
}
