import Testing
@testable import HTTPServer

@Suite struct PeerAddressTests {
    @Test(arguments: [
        ("10.0.0.1", "10.0.0.1"),
        ("::ffff:10.0.0.1", "10.0.0.1"),
        ("::FFFF:10.0.0.1", "10.0.0.1"),
        ("2001:DB8:0:0:0:0:0:1", "2001:db8::1"),
        ("not an address", "not an address"),
    ])
    func oneSpellingPerAddress(text: String, canonical: String) {
        #expect(PeerAddress.canonical(text) == canonical)
    }

    @Test func ipv6AddressesAreLimitedPerSlash64AndIPv4PerAddress() {
        #expect(PeerAddress.limitKey("2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(PeerAddress.limitKey("2001:db8:1:2:ffff:ffff:ffff:ffff") == "2001:db8:1:2::/64")
        #expect(PeerAddress.limitKey("2001:db8:1:3::1") != PeerAddress.limitKey("2001:db8:1:2::1"))
        #expect(PeerAddress.limitKey("::ffff:192.0.2.7") == "192.0.2.7")
    }
}
