import HTTPServer
import Testing

@Suite struct MultipartParserTests {
    static let boundary = Array("----LatchkeyBoundary7MA4YWxk".utf8)
    static let body = Array("""
        preamble to ignore\r
        ------LatchkeyBoundary7MA4YWxk\r
        Content-Disposition: form-data; name="caption"\r
        \r
        hello\r
        ------LatchkeyBoundary7MA4YWxk  \r
        Content-Disposition: form-data; name="file"; filename="me.png"\r
        Content-Type: image/png\r
        \r
        \u{1}\u{2}\r
        ------LatchkeyBoundary7MA4YWx-almost-a-delimiter\r
        --\r
        ------LatchkeyBoundary7MA4YWxk--\r
        epilogue to ignore
        """.utf8)

    /// Events with consecutive data joined, so feeding in any pieces compares equal.
    static func parse(_ body: [UInt8], pieceSize: Int, limits: MultipartParser.Limits = .init()) throws -> [String] {
        var parser = MultipartParser(boundary: boundary, limits: limits)
        var events: [String] = []
        var data: [UInt8] = []
        func flush() { if !data.isEmpty { events.append("data:" + String(decoding: data, as: UTF8.self)); data = [] } }
        for start in stride(from: 0, to: body.count, by: pieceSize) {
            for event in try parser.feed(body[start..<min(start + pieceSize, body.count)]) {
                switch event {
                case .data(let bytes): data += bytes
                case .part(let fields): flush(); events.append("part:" + fields.map { "\($0.name)=\($0.value)" }.joined(separator: "|"))
                case .partEnd: flush(); events.append("end")
                }
            }
        }
        try parser.finish()
        return events
    }

    static let expected = [
        "part:Content-Disposition=form-data; name=\"caption\"", "data:hello", "end",
        "part:Content-Disposition=form-data; name=\"file\"; filename=\"me.png\"|Content-Type=image/png",
        "data:\u{1}\u{2}\r\n------LatchkeyBoundary7MA4YWx-almost-a-delimiter\r\n--", "end",
    ]

    @Test(arguments: [1, 2, 3, 7, 31, 4096])
    func partsComeOutTheSameHoweverTheBytesArrive(_ pieceSize: Int) throws {
        #expect(try Self.parse(Self.body, pieceSize: pieceSize) == Self.expected)
    }

    @Test func everyBoundIsEnforced() throws {
        var fewParts = MultipartParser.Limits()
        fewParts.maximumParts = 1
        #expect(throws: MultipartError.tooManyParts) { try Self.parse(Self.body, pieceSize: 64, limits: fewParts) }
        var smallHeaders = MultipartParser.Limits()
        smallHeaders.maximumHeaderBytes = 40
        #expect(throws: MultipartError.headersTooLarge) { try Self.parse(Self.body, pieceSize: 5, limits: smallHeaders) }
        let endless = Array("------LatchkeyBoundary7MA4YWxk\r\n".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 20_000)
        #expect(throws: MultipartError.headersTooLarge) { try Self.parse(endless, pieceSize: 1000) }
        #expect(throws: MultipartError.truncated) { try Self.parse(Array(Self.body.prefix(200)), pieceSize: 64) }
        let junk = Array("------LatchkeyBoundary7MA4YWxkjunk\r\n\r\n".utf8)
        #expect(throws: MultipartError.malformed("junk after a delimiter")) { try Self.parse(junk, pieceSize: 64) }
        let badHeader = Array("------LatchkeyBoundary7MA4YWxk\r\nno colon here\r\n\r\nx\r\n------LatchkeyBoundary7MA4YWxk--".utf8)
        #expect(throws: MultipartError.malformed("a part header is not `Name: value`")) { try Self.parse(badHeader, pieceSize: 64) }
    }

    @Test func thePartsFormFieldNameIsReadFromItsDisposition() {
        func name(_ disposition: String) -> String? {
            MultipartParser.formFieldName(of: [HTTPField(name: "content-DISPOSITION", value: disposition)])
        }
        #expect(name("form-data; name=\"file\"; filename=\"me.jpg\"") == "file")
        #expect(name("Form-Data;NAME=caption") == "caption")
        #expect(name("attachment; name=\"file\"") == nil)
        #expect(name("form-data; filename=\"file\"") == nil)
        #expect(MultipartParser.formFieldName(of: []) == nil)
    }

    @Test func theBoundaryIsReadFromTheContentType() {
        #expect(MultipartParser.boundary(ofContentType: "multipart/form-data; boundary=abc") == Array("abc".utf8))
        #expect(MultipartParser.boundary(ofContentType: "Multipart/Form-Data; charset=x; BOUNDARY=\"a b:c\"") == Array("a b:c".utf8))
        #expect(MultipartParser.boundary(ofContentType: "multipart/mixed; boundary=abc") == nil)
        #expect(MultipartParser.boundary(ofContentType: "multipart/form-data") == nil)
        #expect(MultipartParser.boundary(ofContentType: "multipart/form-data; boundary=" + String(repeating: "x", count: 71)) == nil)
        #expect(MultipartParser.boundary(ofContentType: "multipart/form-data; boundary=\"\"") == nil)
    }
}
