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
        PeerAddress.limitKey(clientHop(request))
    }

    private func clientHop(_ request: Request) -> String {
        // Every X-Forwarded-For line counts: some proxies add a line of their own instead
        // of appending, and the client's forged line comes first.
        let forwarded = request.head.fieldValues("x-forwarded-for").joined(separator: ",")
        guard trustedProxies.contains(PeerAddress.canonical(request.remoteAddress)), !forwarded.isEmpty else {
            return request.remoteAddress
        }
        let hops = forwarded.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return hops.last { !trustedProxies.contains(PeerAddress.canonical($0)) } ?? hops.first ?? request.remoteAddress
    }
}
