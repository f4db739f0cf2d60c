@testable import LatchkeyCore
import Testing

/// PATCH's `photoURL`: an https URL whose host is a host (schemathesis found `https://]z`
/// accepted, and served back in every profile), and a URI (schemathesis found
/// `https://[.584]:883/z`, no IPv6 address, accepted).
@Suite struct PhotoURLRuleTests {
    @Test(arguments: [
        "https://cdn.example.com/a.jpg", "HTTPS://CDN.Example.com", "https://cdn.example.com:8443/a?b=c#d",
        "https://[2001:db8::1]/me.png", "https://[::1]:443/x", "https://xn--bcher-kva.example/p",
        "https://[::]/", "https://[1:2:3:4:5:6:7::]/", "https://[::ffff:192.0.2.255]/", "https://[1:2:3:4:5:6:7:8]/",
        "https://cdn.example.com/a%20b/~x_y-z.png?w=1&h=2;q=(3)+!*'$,@:/?#frag/?", "https://cdn.example.com#",
    ])
    func accepted(_ url: String) {
        #expect(ProfileChange.isAcceptablePhotoURL(url))
    }

    @Test(arguments: [
        "https://]z", "https://", "https:///path", "http://cdn.example.com/a.jpg", "https://user:pw@cdn.example.com/",
        "https://cdn..example.com/", "https://.example.com/", "https://cdn.example.com:/", "https://cdn.example.com:123456/",
        "https://[zz::1]/", "https://[::1/", "https://cdn example.com/", "https://cdn.exämple.com/", "javascript:alert(1)",
        "https://[.584]:883/z", "https://[1.2.3.4]/", "https://[1:2:3:4:5:6:7:8:9]/", "https://[1::2::3]/", "https://[:1::]/",
        "https://[1:2:3:4:5:6:7:8::]/", "https://[12345::]/", "https://[::1.2.3.256]/", "https://[::01.2.3.4]/", "https://[1.2.3.4::]/",
        "https://[::1.2.3.4:5]/", "https://[]/", "https://cdn.example.com/<script>", "https://cdn.example.com/a\"b",
        "https://cdn.example.com/{x}", "https://cdn.example.com/a|b", "https://cdn.example.com/a^b", "https://cdn.example.com/[x]",
        "https://cdn.example.com/%zz", "https://cdn.example.com/%4", "https://cdn.example.com/#a#b",
    ])
    func refused(_ url: String) {
        #expect(!ProfileChange.isAcceptablePhotoURL(url))
    }
}
