/// The timing rules of a connection as arithmetic on a clock the caller passes in
/// (nanoseconds), so each rule is a unit test with a fake clock, no socket and no sleep.
struct ConnectionDeadlines: Sendable {
    let headerTimeout: UInt64
    let bodyTimeout: UInt64
    let idleTimeout: UInt64
    let writeTimeout: UInt64
    /// Bytes per second a body must keep up once its first `bodyTimeout` is spent.
    let bodyMinRate: Int

    init(_ configuration: ServerConfiguration) {
        headerTimeout = configuration.headerTimeout.nanoseconds
        bodyTimeout = configuration.bodyTimeout.nanoseconds
        idleTimeout = configuration.idleTimeout.nanoseconds
        writeTimeout = configuration.writeTimeout.nanoseconds
        bodyMinRate = max(1, configuration.bodyMinRate)
    }

    /// A body has `bodyTimeout` from its start, plus one second for every `bodyMinRate`
    /// bytes received. A byte now and then buys nothing: a body trickled one byte every
    /// few seconds ends with 408 instead of holding its connection for ever.
    func body(startedAt start: UInt64, received: Int) -> UInt64 {
        start + bodyTimeout + UInt64(received / bodyMinRate) * 1_000_000_000
    }

    /// The write deadline after a send attempt: it runs only while output waits, and
    /// restarts whenever the peer takes bytes, so a slow but steady reader is never cut
    /// off while one that takes nothing for `writeTimeout` is.
    func write(current: UInt64, now: UInt64, sent: Int, blocked: Bool) -> UInt64 {
        guard blocked else { return 0 }
        return sent > 0 || current == 0 ? now + writeTimeout : current
    }
}
