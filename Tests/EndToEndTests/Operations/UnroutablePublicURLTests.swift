import Testing
import TestSupport

/// An operator starts Latchkey listening on every interface (the container's
/// `LATCHKEY_HOST=0.0.0.0`) and forgets publicURL: it becomes `http://0.0.0.0:8080`, and every
/// emailed reset link and the tokens' issuer point at an address no client can reach. Before,
/// nothing said so. The tests listen on 127.0.0.1 only, so they set the URL that the
/// container's defaults resolve to; the container test (scripts/test-container) starts the
/// image without it.
@Suite struct UnroutablePublicURLTests {
    private func startupLog(_ arguments: [String]) throws -> String {
        let server = try LatchkeyProcess(arguments: ["serve", "--port", "0"] + arguments)
        defer { server.terminate() }
        try server.waitUntilListening()
        return server.output
    }

    @Test(arguments: ["http://0.0.0.0:8080", "http://[::]:8080", "https://[0:0::0]"])
    func anUnspecifiedAddressIsWarnedAbout(publicURL: String) throws {
        let log = try startupLog(["--public-url", publicURL])
        #expect(log.contains("publicURL \(publicURL) is no address a client can reach"))
    }

    @Test func aReachableAddressStartsWithoutTheWarning() throws {
        #expect(!(try startupLog([])).contains("no address a client can reach"))
        #expect(!(try startupLog(["--public-url", "http://0.0.0.1:8080"])).contains("no address a client can reach"))
    }
}
