import Glibc
import HTTPServer
import LatchkeyCore

/// The address a request comes from, as throttles count it. `X-Forwarded-For` is believed
/// only when the peer is a trusted proxy, and then the nearest untrusted hop wins: a client
/// cannot choose its own address by sending the header itself. IPv6 clients are counted
/// per /64, the block one subscriber gets, so hopping through its addresses gains nothing.
struct ClientAddress: Sendable {
    let trustedProxies: Set<String>

    init(trustedProxies: [String]) {
        self.trustedProxies = Set(trustedProxies.map(Self.canonical))
    }

    func of(_ request: Request) -> String {
        Self.throttleKey(Self.canonical(clientHop(request)))
    }

    private func clientHop(_ request: Request) -> String {
        // Every X-Forwarded-For line counts: some proxies add a line of their own instead
        // of appending, and the client's forged line comes first.
        let forwarded = request.head.fieldValues("x-forwarded-for").joined(separator: ",")
        guard trustedProxies.contains(Self.canonical(request.remoteAddress)), !forwarded.isEmpty else {
            return request.remoteAddress
        }
        let hops = forwarded.split(separator: ",").map { $0.trimmingWhitespace() }.filter { !$0.isEmpty }
        return hops.last { !trustedProxies.contains(Self.canonical($0)) } ?? hops.first ?? request.remoteAddress
    }

    /// One spelling per address (inet_ntop's), so sets and keys compare the address, not
    /// its text: `::FFFF:10.0.0.1`, `::ffff:10.0.0.1` and `10.0.0.1` are one client.
    /// Text that is no address is kept as it is, cut short.
    static func canonical(_ text: String) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { format(AF_INET, $0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return String(text.utf8.prefix(64)) ?? "" }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12..<16].map(String.init).joined(separator: ".")  // IPv4-mapped
        }
        return withUnsafeBytes(of: &v6) { format(AF_INET6, $0) }
    }

    /// IPv6 addresses by their /64; IPv4 (and anything else) as they are.
    static func throttleKey(_ canonical: String) -> String {
        var v6 = in6_addr()
        guard canonical.contains(":"), inet_pton(AF_INET6, canonical, &v6) == 1 else { return canonical }
        withUnsafeMutableBytes(of: &v6) { bytes in
            for index in 8..<16 { bytes[index] = 0 }
        }
        return withUnsafeBytes(of: &v6) { format(AF_INET6, $0) } + "/64"
    }

    private static func format(_ family: Int32, _ address: UnsafeRawBufferPointer) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, address.baseAddress, &buffer, socklen_t(buffer.count)) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
