import HTTPServer
import LatchkeyCore

/// The address a request comes from, as throttles count it (`PeerAddress.limitKey`: IPv6
/// by /64). `X-Forwarded-For` is believed only when the peer is a trusted proxy, and then
/// the nearest untrusted hop wins: a client cannot choose its own address by sending the
/// header itself.
struct ClientAddress: Sendable {
    let trustedProxies: Set<String>

    init(trustedProxies: [String]) {
        self.trustedProxies = Set(trustedProxies.map(PeerAddress.canonical))
    }

    func of(_ request: Request) -> String {
        // Every X-Forwarded-For line counts: some proxies add a line of their own instead
        // of appending, and the client's forged line comes first.
        PeerAddress.limitKey(hop(peer: request.remoteAddress, forwardedFor: request.head.fieldValues("x-forwarded-for").joined(separator: ",")))
    }

    /// The client's own address (for the access log): the peer, or behind a trusted proxy
    /// the nearest untrusted hop of `forwardedFor` (all its lines joined with commas).
    func hop(peer: String, forwardedFor: String?) -> String {
        guard let forwardedFor, !forwardedFor.isEmpty, trustedProxies.contains(PeerAddress.canonical(peer)) else { return peer }
        let hops = listMembers([forwardedFor]).map { String(decoding: $0, as: UTF8.self) }
        return hops.last { !trustedProxies.contains(PeerAddress.canonical($0)) } ?? hops.first ?? peer
    }
}
