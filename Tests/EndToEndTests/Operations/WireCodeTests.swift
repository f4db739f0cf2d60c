import LatchkeyAPI
import LatchkeyClient
import Testing

/// The client names the server's codes itself (it ships in apps and shares no code with
/// the server): this holds the two lists equal, so a code added to one is added to both.
@Suite struct WireCodes {
    @Test func theClientNamesEveryCodeTheServerSendsAndNoOther() {
        let server = Set(WireCode.allCases.map(\.rawValue))
        let client = Set(ErrorCode.known.map(\.rawValue))
        #expect(server.subtracting(client).sorted() == [], "codes the server sends that ErrorCode does not name")
        #expect(client.subtracting(server).sorted() == [], "codes ErrorCode names that the server never sends")
        #expect(ErrorCode.known.count == client.count, "ErrorCode.known lists each code once")
    }
}
