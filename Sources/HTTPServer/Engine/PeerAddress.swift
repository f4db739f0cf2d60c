import Glibc

/// Peer addresses in one spelling, so limits count the address and not its text:
/// `::FFFF:10.0.0.1`, `::ffff:10.0.0.1` and `10.0.0.1` are one client. IPv6 clients are
/// counted per /64, the block one subscriber gets, so hopping through its addresses
/// gains nothing.
public enum PeerAddress {
    /// inet_ntop's spelling (IPv4-mapped IPv6 as IPv4); text that is no address is kept
    /// as it is, cut short.
    public static func canonical(_ text: String) -> String {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { format(AF_INET, $0) } }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return String(text.utf8.prefix(64)) ?? "" }
        let bytes = withUnsafeBytes(of: &v6) { Array($0) }
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12..<16].map(String.init).joined(separator: ".")
        }
        return withUnsafeBytes(of: &v6) { format(AF_INET6, $0) }
    }

    /// What limits count by: an IPv6 address's /64, any other address (canonical) itself.
    public static func limitKey(_ text: String) -> String {
        let address = canonical(text)
        var v6 = in6_addr()
        guard address.contains(":"), inet_pton(AF_INET6, address, &v6) == 1 else { return address }
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
