import Testing
@testable import HTTPServer

/// One row of the request-head table: raw bytes and what the parser must make of them.
struct HeadParserCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: [UInt8]
    let limits: HeadLimits
    let expected: HeadParseResult

    var testDescription: String { name }

    static func accepts(
        _ name: String, _ raw: String, limits: HeadLimits = HeadLimits(),
        _ method: String, _ target: String, _ version: HTTPVersion = .http1_1,
        fields: [(String, String)] = [], unread: Int = 0
    ) -> HeadParserCase {
        let input = Array(raw.utf8)
        let head = RequestHead(method: method, target: target, version: version, fields: fields.map { HTTPField(name: $0.0, value: $0.1) })
        return HeadParserCase(name: name, input: input, limits: limits, expected: .complete(head, consumed: input.count - unread))
    }

    static func refuses(_ name: String, _ raw: String, limits: HeadLimits = HeadLimits(), _ error: HeadParseError) -> HeadParserCase {
        HeadParserCase(name: name, input: Array(raw.utf8), limits: limits, expected: .failure(error))
    }

    static func waits(_ name: String, _ raw: String, limits: HeadLimits = HeadLimits()) -> HeadParserCase {
        HeadParserCase(name: name, input: Array(raw.utf8), limits: limits, expected: .incomplete)
    }
}

/// Small limits keep the every-offset feeding of the limit rows cheap.
let smallLimits = HeadLimits(maxRequestLineBytes: 40, maxHeaderSectionBytes: 120, maxFieldCount: 4)

/// A request line of exactly `length` bytes (without its CRLF).
func requestLine(length: Int) -> String {
    "GET /" + String(repeating: "a", count: length - 14) + " HTTP/1.1"
}

/// A whole head of exactly `length` bytes whose last field is padding.
func paddedHead(length: Int) -> String {
    "GET / HTTP/1.1\r\nHost: a\r\nX-Pad: " + String(repeating: "p", count: length - 36) + "\r\n\r\n"
}

extension HeadParserCase {
    static let accepted: [HeadParserCase] = [
        .accepts("simple GET", "GET /index.html HTTP/1.1\r\nHost: example.com\r\n\r\n",
                 "GET", "/index.html", fields: [("Host", "example.com")]),
        .accepts("HTTP/1.0 without fields", "GET / HTTP/1.0\r\n\r\n", "GET", "/", .http1_0),
        .accepts("several fields keep order and spelling", "POST /a HTTP/1.1\r\nhost: a\r\nContent-Length: 0\r\nX-CASE: Yes\r\n\r\n",
                 "POST", "/a", fields: [("host", "a"), ("Content-Length", "0"), ("X-CASE", "Yes")]),
        .accepts("optional whitespace around a value is trimmed", "GET / HTTP/1.1\r\nHost:a\r\nX-Padded: \t inner  space \t \r\n\r\n",
                 "GET", "/", fields: [("Host", "a"), ("X-Padded", "inner  space")]),
        .accepts("empty and blank values", "GET / HTTP/1.1\r\nHost: a\r\nX-Empty:\r\nX-Blank:   \r\n\r\n",
                 "GET", "/", fields: [("Host", "a"), ("X-Empty", ""), ("X-Blank", "")]),
        .accepts("an empty line before the request line is ignored", "\r\nGET / HTTP/1.1\r\nHost: a\r\n\r\n",
                 "GET", "/", fields: [("Host", "a")]),
        .accepts("bytes after the head are left unconsumed", "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello",
                 "POST", "/echo", fields: [("Host", "a"), ("Content-Length", "5")], unread: 5),
        .accepts("HTTP/1.2 is served as 1.1", "GET / HTTP/1.2\r\nHost: a\r\n\r\n", "GET", "/", .http1_1, fields: [("Host", "a")]),
        .accepts("absolute-form target is kept whole", "GET http://a.example/x?y=1 HTTP/1.1\r\nHost: a.example\r\n\r\n",
                 "GET", "http://a.example/x?y=1", fields: [("Host", "a.example")]),
        .accepts("token characters in method and name", "M-SEARCH! * HTTP/1.1\r\nHost: a\r\nX-!#$%&'*+.^_`|~: v\r\n\r\n",
                 "M-SEARCH!", "*", fields: [("Host", "a"), ("X-!#$%&'*+.^_`|~", "v")]),
        .accepts("obs-text and tabs inside a value", "GET / HTTP/1.1\r\nHost: a\r\nX-Name: caf\u{E9}\tbar\r\n\r\n",
                 "GET", "/", fields: [("Host", "a"), ("X-Name", "caf\u{E9}\tbar")]),
        .accepts("request line exactly at the limit", requestLine(length: 40) + "\r\nHost: a\r\n\r\n", limits: smallLimits,
                 "GET", "/" + String(repeating: "a", count: 26), fields: [("Host", "a")]),
        .accepts("header section exactly at the limit", paddedHead(length: 120), limits: smallLimits,
                 "GET", "/", fields: [("Host", "a"), ("X-Pad", String(repeating: "p", count: 84))]),
        .accepts("exactly maxFieldCount fields", "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\n\r\n", limits: smallLimits,
                 "GET", "/", fields: [("Host", "a"), ("A", "1"), ("B", "2"), ("C", "3")]),
    ]

    static let refused: [HeadParserCase] = [
        .refuses("bare LF ends the request line", "GET / HTTP/1.1\nHost: a\r\n\r\n", .badRequest("bare LF in head")),
        .refuses("bare LF ends the head", "GET / HTTP/1.1\r\nHost: a\r\n\n", .badRequest("bare LF in head")),
        .refuses("bare LF before the request line", "\nGET / HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest("bare LF in head")),
        .refuses("bare CR inside a value", "GET / HTTP/1.1\r\nHost: a\rb\r\n\r\n", .badRequest("bare CR in head")),
        .refuses("bare CR inside the request line", "GET /\r HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest("bare CR in head")),
        .refuses("CR CR LF", "GET / HTTP/1.1\r\r\nHost: a\r\n\r\n", .badRequest("bare CR in head")),
        .refuses("NUL in a value", "GET / HTTP/1.1\r\nHost: a\u{0}b\r\n\r\n", .badRequest("NUL in head")),
        .refuses("NUL in the request line", "GET /\u{0} HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest("NUL in head")),
        .refuses("obs-fold with a space", "GET / HTTP/1.1\r\nHost: a\r\nX-Folded: one\r\n two\r\n\r\n",
                 .badRequest("obsolete line folding in header section")),
        .refuses("obs-fold with a tab", "GET / HTTP/1.1\r\nHost: a\r\nX-Folded: one\r\n\ttwo\r\n\r\n",
                 .badRequest("obsolete line folding in header section")),
        .refuses("space before the colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n", .badRequest("whitespace before colon in header field")),
        .refuses("tab before the colon", "GET / HTTP/1.1\r\nHost\t: a\r\n\r\n", .badRequest("whitespace before colon in header field")),
        .refuses("parenthesis in a field name", "GET / HTTP/1.1\r\nHost: a\r\nX(bad): v\r\n\r\n",
                 .badRequest("invalid character in header field name")),
        .refuses("non-ASCII in a field name", "GET / HTTP/1.1\r\nHost: a\r\nX-\u{E9}: v\r\n\r\n",
                 .badRequest("invalid character in header field name")),
        .refuses("empty field name", "GET / HTTP/1.1\r\nHost: a\r\n: v\r\n\r\n", .badRequest("malformed header field")),
        .refuses("field line without a colon", "GET / HTTP/1.1\r\nHost: a\r\nNoColon\r\n\r\n", .badRequest("malformed header field")),
        .refuses("control character in a value", "GET / HTTP/1.1\r\nHost: a\u{1}b\r\n\r\n",
                 .badRequest("invalid character in header field value")),
        .refuses("DEL in a value", "GET / HTTP/1.1\r\nHost: a\u{7F}b\r\n\r\n", .badRequest("invalid character in header field value")),
        .refuses("parenthesis in the method", "G(T / HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest("malformed request line")),
        .refuses("empty method", " / HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest("malformed request line")),
        .refuses("missing target", "GET HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest("malformed request line")),
        .refuses("double space after the method", "GET  / HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest("malformed request line")),
        .refuses("double space before the version", "GET /  HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest("malformed HTTP version")),
        .refuses("control character in the target", "GET /a\u{1}b HTTP/1.1\r\nHost: a\r\n\r\n", .badRequest("malformed request line")),
        .refuses("HTTP/0.9 request line without a version", "GET /\r\n\r\n", .badRequest("malformed request line")),
        .refuses("lower-case http/1.1", "GET / http/1.1\r\nHost: a\r\n\r\n", .badRequest("malformed HTTP version")),
        .refuses("two-digit minor version", "GET / HTTP/1.10\r\nHost: a\r\n\r\n", .badRequest("malformed HTTP version")),
        .refuses("trailing space after the version", "GET / HTTP/1.1 \r\nHost: a\r\n\r\n", .badRequest("malformed HTTP version")),
        .refuses("HTTP/2.0", "GET / HTTP/2.0\r\nHost: a\r\n\r\n", .versionNotSupported),
        .refuses("HTTP/0.9 with a version", "GET / HTTP/0.9\r\nHost: a\r\n\r\n", .versionNotSupported),
        .refuses("request line one byte over the limit", requestLine(length: 41) + "\r\nHost: a\r\n\r\n", limits: smallLimits,
                 .requestLineTooLong),
        .refuses("incomplete request line already over the limit", "GET /" + String(repeating: "a", count: 60), limits: smallLimits,
                 .requestLineTooLong),
        .refuses("header section one byte over the limit", paddedHead(length: 121), limits: smallLimits, .headerSectionTooLarge),
        .refuses("incomplete header section already over the limit",
                 "GET / HTTP/1.1\r\nHost: a\r\nX-Pad: " + String(repeating: "p", count: 100), limits: smallLimits, .headerSectionTooLarge),
        .refuses("one field more than maxFieldCount", "GET / HTTP/1.1\r\nHost: a\r\nA: 1\r\nB: 2\r\nC: 3\r\nD: 4\r\n\r\n",
                 limits: smallLimits, .headerSectionTooLarge),
    ]

    static let incomplete: [HeadParserCase] = [
        .waits("empty input", ""),
        .waits("request line without its CRLF", "GET / HTTP/1.1"),
        .waits("head without its empty line", "GET / HTTP/1.1\r\nHost: a\r\n"),
        .waits("head ending in CR", "GET / HTTP/1.1\r\nHost: a\r\n\r"),
        .waits("only empty lines", "\r\n\r\n"),
        .waits("incomplete request line exactly at the limit", "GET /" + String(repeating: "a", count: 35), limits: smallLimits),
    ]

    static let all = accepted + refused + incomplete
}
