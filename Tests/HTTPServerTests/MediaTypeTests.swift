@testable import HTTPServer
import Testing

/// `RequestHead.hasMediaType`, which every JSON route asks before it reads a body: the type
/// before any parameter, ASCII case aside, spaces and tabs trimmed, nothing else.
@Suite struct MediaTypeTests {
    private func head(contentType: String?) -> RequestHead {
        RequestHead(
            method: "POST", target: "/", version: .http1_1,
            fields: [HTTPField(name: "Host", value: "a")] + (contentType.map { [HTTPField(name: "Content-Type", value: $0)] } ?? [])
        )
    }

    @Test(arguments: ["application/json", "application/json; charset=utf-8", "Application/JSON", " application/json\t;x=y", "application/json;"])
    func namesTheType(_ value: String) {
        #expect(head(contentType: value).hasMediaType("application/json"))
    }

    @Test(arguments: ["text/plain", "application/jsonx", "application/json-patch+json", "application/ json", "", ";application/json", "applicatıon/json"])
    func refusesAnyOther(_ value: String) {
        #expect(!head(contentType: value).hasMediaType("application/json"))
    }

    @Test func refusesARequestWithoutOne() {
        #expect(!head(contentType: nil).hasMediaType("application/json"))
    }
}
