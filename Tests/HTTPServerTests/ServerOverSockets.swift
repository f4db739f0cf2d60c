import Testing

/// The engine over real sockets: each test starts its own server on an ephemeral port of
/// 127.0.0.1. Serialized so the timing-sensitive tests do not compete with one another
/// for the machine's two cores.
@Suite(.serialized) struct ServerOverSockets {}
