import LatchkeyCore
import HTTPServer

/// The address a request comes from. `X-Forwarded-For` is believed only when the peer is
/// a trusted proxy, and then the nearest untrusted hop wins: a client cannot choose its
/// own address by sending the header itself.
struct ClientAddress: Sendable {
    let trustedProxies: Set<String>

    func of(_ request: Request) -> String {
        guard trustedProxies.contains(request.remoteAddress), let forwarded = request.header("x-forwarded-for") else {
            return request.remoteAddress
        }
        let hops = forwarded.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return hops.last { !trustedProxies.contains($0) } ?? hops.first ?? request.remoteAddress
    }
}
