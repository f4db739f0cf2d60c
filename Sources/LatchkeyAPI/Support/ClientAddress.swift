import LatchkeyCore
import HTTPServer

/// The address a request comes from. `X-Forwarded-For` is believed only when the peer is
/// a trusted proxy, and then the nearest untrusted hop wins: a client cannot choose its
/// own address by sending the header itself.
struct ClientAddress: Sendable {
    let trustedProxies: Set<String>

    func of(_ request: Request) -> String {
        // Every X-Forwarded-For line counts: some proxies add a line of their own instead
        // of appending, and the client's forged line comes first.
        let forwarded = request.head.fieldValues("x-forwarded-for").joined(separator: ",")
        guard trustedProxies.contains(request.remoteAddress), !forwarded.isEmpty else {
            return request.remoteAddress
        }
        let hops = forwarded.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return hops.last { !trustedProxies.contains($0) } ?? hops.first ?? request.remoteAddress
    }
}
