import SMTP
import Testing

@Suite struct SMTPEndpointTests {
    @Test func schemesPortsAndCredentials() throws {
        let plain = try SMTPEndpoint(url: "smtp://mail.example.com")
        #expect(plain.security == .startTLS && plain.host == "mail.example.com" && plain.port == 587 && plain.username == nil)
        let implicit = try SMTPEndpoint(url: "SMTPS://apikey:s%40cr%3At@smtp.example.com:2465/")
        #expect(implicit.security == .implicitTLS && implicit.port == 2465)
        #expect(implicit.username == "apikey" && implicit.password == "s@cr:t", "percent-decoded")
        #expect(try SMTPEndpoint(url: "smtps://h").port == 465)
        let bracketed = try SMTPEndpoint(url: "smtp://[::1]:2525")
        #expect(bracketed.host == "::1" && bracketed.port == 2525 && bracketed.isLoopback)
        #expect(try SMTPEndpoint(url: "smtp://localhost:1025").isLoopback)
        #expect(try SMTPEndpoint(url: "smtp://127.0.0.1").isLoopback)
        #expect(try !SMTPEndpoint(url: "smtp://smtp.example.com").isLoopback)
    }

    @Test(arguments: [
        ("http://mail.example.com", "it must start with smtp:// or smtps://"),
        ("smtp://", "it names no host"),
        ("smtp://host:0", "its port must be a number from 1 to 65535"),
        ("smtp://host:65536", "its port must be a number from 1 to 65535"),
        ("smtp://host:25x", "its port must be a number from 1 to 65535"),
        ("smtp://host/path", "it may not have a path"),
        ("smtp://host?x=1", "it may not hold a query, a fragment, spaces or control characters"),
        ("smtp://user@host", "it names a user but no password (user:password@host)"),
        ("smtp://user:%zz@host", "it names a user but no password (user:password@host)"),
        ("smtp://[::1:25", "its IPv6 address has no closing ]"),
    ])
    func badURLsSayWhatIsWrong(_ url: String, _ why: String) {
        #expect(throws: SMTPError.badURL(why)) { try SMTPEndpoint(url: url) }
    }

    @Test func aRefusedURLNeverEchoesItsPassword() {
        do {
            _ = try SMTPEndpoint(url: "smtp://user:hunter2@host:99999")
            Issue.record("accepted a port over 65535")
        } catch {
            #expect(!error.description.contains("hunter2"))
        }
    }
}
