@testable import LatchkeyCore
import Testing

/// PATCH's `photoURL`: an https URL whose host is a host (schemathesis found `https://]z`
/// accepted, and served back in every profile).
@Suite struct PhotoURLRuleTests {
    @Test(arguments: [
        "https://cdn.example.com/a.jpg", "HTTPS://CDN.Example.com", "https://cdn.example.com:8443/a?b=c#d",
        "https://[2001:db8::1]/me.png", "https://[::1]:443/x", "https://xn--bcher-kva.example/p",
    ])
    func accepted(_ url: String) {
        #expect(ProfileChange.isAcceptablePhotoURL(url))
    }

    @Test(arguments: [
        "https://]z", "https://", "https:///path", "http://cdn.example.com/a.jpg", "https://user:pw@cdn.example.com/",
        "https://cdn..example.com/", "https://.example.com/", "https://cdn.example.com:/", "https://cdn.example.com:123456/",
        "https://[zz::1]/", "https://[::1/", "https://cdn example.com/", "https://cdn.exämple.com/", "javascript:alert(1)",
    ])
    func refused(_ url: String) {
        #expect(!ProfileChange.isAcceptablePhotoURL(url))
    }
}
