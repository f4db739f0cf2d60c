import Testing
@testable import HTTPServer

/// A head with the given fields, for rules that look only at fields.
func requestHead(_ fields: [(String, String)], version: HTTPVersion = .http1_1) -> RequestHead {
    RequestHead(method: "POST", target: "/", version: version, fields: fields.map { HTTPField(name: $0.0, value: $0.1) })
}

struct FramingCase: Sendable, CustomTestStringConvertible {
    let name: String
    let head: RequestHead
    let expected: Result<BodyFraming, FramingError>
    var testDescription: String { name }

    init(_ name: String, _ fields: [(String, String)], _ expected: Result<BodyFraming, FramingError>, version: HTTPVersion = .http1_1) {
        self.name = name
        self.head = requestHead(fields, version: version)
        self.expected = expected
    }

    static let framed: [FramingCase] = [
        FramingCase("no framing fields means no body", [("Host", "a")], .success(.none)),
        FramingCase("Content-Length", [("Host", "a"), ("Content-Length", "5")], .success(.contentLength(5))),
        FramingCase("Content-Length 0 means no body", [("Host", "a"), ("Content-Length", "0")], .success(.none)),
        FramingCase("repeated equal members \"5, 5\"", [("Host", "a"), ("Content-Length", "5, 5")], .success(.contentLength(5))),
        FramingCase("two equal Content-Length fields", [("Host", "a"), ("Content-Length", "5"), ("content-length", "5")], .success(.contentLength(5))),
        FramingCase("the longest accepted Content-Length", [("Host", "a"), ("Content-Length", "999999999999999999")],
                    .success(.contentLength(999_999_999_999_999_999))),
        FramingCase("chunked", [("Host", "a"), ("Transfer-Encoding", "chunked")], .success(.chunked)),
        FramingCase("chunked in any case", [("Host", "a"), ("Transfer-Encoding", " Chunked ")], .success(.chunked)),
        FramingCase("HTTP/1.0 without Host", [("Content-Length", "3")], .success(.contentLength(3)), version: .http1_0),
    ]

    static let refused: [FramingCase] = [
        FramingCase("Content-Length with Transfer-Encoding", [("Host", "a"), ("Content-Length", "5"), ("Transfer-Encoding", "chunked")],
                    .failure(.badRequest("both Content-Length and Transfer-Encoding"))),
        FramingCase("differing duplicate Content-Length fields", [("Host", "a"), ("Content-Length", "5"), ("Content-Length", "6")],
                    .failure(.badRequest("conflicting Content-Length values"))),
        FramingCase("differing members \"5, 6\"", [("Host", "a"), ("Content-Length", "5, 6")],
                    .failure(.badRequest("conflicting Content-Length values"))),
        FramingCase("non-digit Content-Length", [("Host", "a"), ("Content-Length", "five")], .failure(.badRequest("invalid Content-Length"))),
        FramingCase("Content-Length with a trailing letter", [("Host", "a"), ("Content-Length", "5a")], .failure(.badRequest("invalid Content-Length"))),
        FramingCase("hex Content-Length", [("Host", "a"), ("Content-Length", "0x5")], .failure(.badRequest("invalid Content-Length"))),
        FramingCase("plus-signed Content-Length", [("Host", "a"), ("Content-Length", "+5")], .failure(.badRequest("invalid Content-Length"))),
        FramingCase("negative Content-Length", [("Host", "a"), ("Content-Length", "-5")], .failure(.badRequest("invalid Content-Length"))),
        FramingCase("empty Content-Length", [("Host", "a"), ("Content-Length", "")], .failure(.badRequest("invalid Content-Length"))),
        FramingCase("empty list member \"5,\"", [("Host", "a"), ("Content-Length", "5,")], .failure(.badRequest("invalid Content-Length"))),
        FramingCase("overflowing Content-Length", [("Host", "a"), ("Content-Length", "99999999999999999999")],
                    .failure(.badRequest("invalid Content-Length"))),
        FramingCase("Transfer-Encoding gzip", [("Host", "a"), ("Transfer-Encoding", "gzip")], .failure(.unsupportedTransferCoding)),
        FramingCase("Transfer-Encoding gzip, chunked", [("Host", "a"), ("Transfer-Encoding", "gzip, chunked")], .failure(.unsupportedTransferCoding)),
        FramingCase("Transfer-Encoding identity", [("Host", "a"), ("Transfer-Encoding", "identity")], .failure(.unsupportedTransferCoding)),
        // U+212A KELVIN SIGN lower-cases (as Unicode) to "k": only the bytes may decide.
        FramingCase("Transfer-Encoding chun\u{212A}ed (KELVIN SIGN)", [("Host", "a"), ("Transfer-Encoding", "chun\u{212A}ed")],
                    .failure(.unsupportedTransferCoding)),
        FramingCase("Transfer-Encoding chunked with a combining mark", [("Host", "a"), ("Transfer-Encoding", "chunked\u{0301}")],
                    .failure(.unsupportedTransferCoding)),
        FramingCase("Transfer-Encoding chunked, chunked", [("Host", "a"), ("Transfer-Encoding", "chunked, chunked")],
                    .failure(.badRequest("invalid Transfer-Encoding"))),
        FramingCase("two chunked Transfer-Encoding fields", [("Host", "a"), ("Transfer-Encoding", "chunked"), ("Transfer-Encoding", "chunked")],
                    .failure(.badRequest("invalid Transfer-Encoding"))),
        FramingCase("empty Transfer-Encoding", [("Host", "a"), ("Transfer-Encoding", "")], .failure(.badRequest("invalid Transfer-Encoding"))),
        FramingCase("Transfer-Encoding in HTTP/1.0", [("Transfer-Encoding", "chunked")],
                    .failure(.badRequest("Transfer-Encoding in an HTTP/1.0 request")), version: .http1_0),
        FramingCase("HTTP/1.1 without Host", [("Content-Length", "5")], .failure(.badRequest("missing Host field"))),
        FramingCase("two Host fields", [("Host", "a"), ("Host", "b")], .failure(.badRequest("more than one Host field"))),
        FramingCase("two Host fields in HTTP/1.0", [("Host", "a"), ("host", "a")], .failure(.badRequest("more than one Host field")), version: .http1_0),
    ]
}

@Suite struct BodyFramingTests {
    @Suite struct Framing {
        @Test(arguments: FramingCase.framed)
        func decidesTheFraming(_ row: FramingCase) throws {
            #expect(try row.head.bodyFraming().get() == row.expected.get())
        }

        @Test(arguments: FramingCase.refused)
        func refusesAmbiguousOrUnsupportedFraming(_ row: FramingCase) {
            guard case .failure(let expected) = row.expected else { return }
            #expect(throws: expected) { try row.head.bodyFraming().get() }
        }
    }

    @Suite struct Expectations {
        @Test(arguments: [
            (nil, false, false), ("100-continue", true, false), ("100-Continue", true, false),
            ("fly-me-to-the-moon", false, true), ("", false, true),
        ] as [(String?, Bool, Bool)])
        func classifiesExpect(value: String?, continues: Bool, unsupported: Bool) {
            let request = requestHead([("Host", "a")] + (value.map { [("Expect", $0)] } ?? []))
            #expect(request.expectsContinue == continues)
            #expect(request.hasUnsupportedExpectation == unsupported)
        }
    }

    @Suite struct KeepAlive {
        @Test(arguments: [
            (HTTPVersion.http1_1, [], true),
            (.http1_1, ["close"], false),
            (.http1_1, ["Keep-Alive, Close"], false),
            (.http1_1, ["upgrade", "close"], false),
            (.http1_1, ["keep-alive"], true),
            (.http1_0, [], false),
            (.http1_0, ["keep-alive"], true),
            (.http1_0, ["Keep-Alive"], true),
            (.http1_0, ["keep-alive, close"], false),
            (.http1_0, ["upgrade"], false),
        ] as [(HTTPVersion, [String], Bool)])
        func followsVersionAndConnectionTokens(version: HTTPVersion, connection: [String], keepsAlive: Bool) {
            let request = requestHead(connection.map { ("Connection", $0) }, version: version)
            #expect(request.wantsKeepAlive == keepsAlive)
        }
    }
}
