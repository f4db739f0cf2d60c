import Testing
import TestSupport
@testable import HTTPServer

struct ChunkedCase: Sendable, CustomTestStringConvertible {
    let name: String
    let input: [UInt8]
    let limit: Int
    let expected: ChunkedDecodeResult
    /// The decoded body; checked unless decoding fails.
    let body: String
    var testDescription: String { name }

    /// A body that ends; `unread` bytes after it belong to the next request.
    static func decodes(_ name: String, _ raw: String, limit: Int = 1024, _ body: String, unread: Int = 0) -> ChunkedCase {
        let input = Array(raw.utf8)
        return ChunkedCase(name: name, input: input, limit: limit, expected: .done(consumed: input.count - unread), body: body)
    }

    static func waits(_ name: String, _ raw: String, limit: Int = 1024, _ body: String) -> ChunkedCase {
        ChunkedCase(name: name, input: Array(raw.utf8), limit: limit, expected: .needMore, body: body)
    }

    static func refuses(_ name: String, _ raw: String, limit: Int = 1024, _ error: ChunkedDecodeError) -> ChunkedCase {
        ChunkedCase(name: name, input: Array(raw.utf8), limit: limit, expected: .failure(error), body: "")
    }

    static let all: [ChunkedCase] = [
        .decodes("one chunk", "5\r\nhello\r\n0\r\n\r\n", "hello"),
        .decodes("empty body", "0\r\n\r\n", ""),
        .decodes("several chunks", "5\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\n\r\n", "hello world"),
        .decodes("chunk extensions are skipped", "5;name=value\r\nhello\r\n3 ; a=\"b;c\"\r\nabc\r\n0;last\r\n\r\n", "helloabc"),
        .decodes("trailer fields are skipped", "5\r\nhello\r\n0\r\nX-Checksum: abc\r\nX-Other: d\r\n\r\n", "hello"),
        .decodes("extensions with spaces around ; and =, and an escaped quote", "5 ; a = b ;c=\"d\\\"e\"\r\nhello\r\n0\r\n\r\n", "hello"),
        .decodes("upper-case hex", "A\r\n0123456789\r\n0\r\n\r\n", "0123456789"),
        .decodes("lower-case hex with leading zeros", "000a\r\n0123456789\r\n0\r\n\r\n", "0123456789"),
        .decodes("body exactly at the limit", "5\r\nhello\r\n3\r\nabc\r\n0\r\n\r\n", limit: 8, "helloabc"),
        .decodes("bytes after the body are left unconsumed", "5\r\nhello\r\n0\r\n\r\nGET / HTTP/1.1\r\n", "hello", unread: 16),
        .waits("chunk data still arriving", "5\r\nhel", "hel"),
        .waits("last chunk without its empty line", "5\r\nhello\r\n0\r\n", "hello"),
        .waits("largest chunk size with no limit", "fffffffffffffff\r\n", limit: .max, ""),
        .refuses("chunk data longer than its size", "5\r\nhelloX\r\n0\r\n\r\n", .malformed("chunk data longer than its size")),
        .refuses("bare CR after chunk data", "5\r\nhello\rX0\r\n\r\n", .malformed("bare CR after chunk data")),
        .refuses("bare CR after the chunk size", "5\rXhello\r\n0\r\n\r\n", .malformed("bare CR after chunk size")),
        .refuses("bare LF after the chunk size", "5\nhello\r\n0\r\n\r\n", .malformed("invalid chunk size")),
        .refuses("size that is not hex", "G\r\nhello\r\n0\r\n\r\n", .malformed("missing chunk size")),
        .refuses("hex followed by garbage", "5G\r\nhello\r\n0\r\n\r\n", .malformed("invalid chunk size")),
        .refuses("empty size line", "\r\n", .malformed("missing chunk size")),
        .refuses("signed size", "-5\r\nhello\r\n", .malformed("missing chunk size")),
        .refuses("size that would overflow", "10000000000000000\r\n", limit: .max, .malformed("chunk size too long")),
        .refuses("NUL in a chunk extension", "5;a\u{0}\r\nhello\r\n0\r\n\r\n", .malformed("invalid chunk extension")),
        .refuses("bare LF in a chunk extension", "5;a\nhello\r\n0\r\n\r\n", .malformed("invalid chunk extension")),
        .refuses("junk after the size with no semicolon", "5 junk\r\nhello\r\n0\r\n\r\n", .malformed("invalid chunk extension")),
        .refuses("whitespace after the size with no extension", "5 \r\nhello\r\n0\r\n\r\n", .malformed("invalid chunk extension")),
        .refuses("semicolon without an extension name", "5;\r\nhello\r\n0\r\n\r\n", .malformed("invalid chunk extension")),
        .refuses("extension value that is not a token", "5;a=b c\r\nhello\r\n0\r\n\r\n", .malformed("invalid chunk extension")),
        .refuses("unterminated quoted extension value", "5;a=\"b\r\nhello\r\n0\r\n\r\n", .malformed("invalid chunk extension")),
        .refuses("trailer line without a colon", "0\r\nNoColon\r\n\r\n", .malformed("invalid trailer field")),
        .refuses("whitespace before a trailer's colon", "0\r\nX : y\r\n\r\n", .malformed("invalid trailer field")),
        .refuses("trailer name that is not a token", "0\r\n(x): y\r\n\r\n", .malformed("invalid trailer field")),
        .refuses("NUL in a trailer value", "0\r\nX: a\u{0}b\r\n\r\n", .malformed("invalid trailer field")),
        .refuses("obs-fold in the trailer section", "0\r\nX: a\r\n b\r\n\r\n", .malformed("invalid trailer field")),
        .refuses("bare LF in the trailer section", "0\r\nX: y\n\r\n", .malformed("invalid trailer field")),
        .refuses("bare CR in the trailer section", "0\r\nX: y\rZ\r\n", .malformed("bare CR in trailer section")),
        .refuses("one chunk over the limit", "5\r\nhello\r\n0\r\n\r\n", limit: 4, .tooLarge),
        .refuses("chunks adding up to more than the limit", "5\r\nhello\r\n4\r\nmore\r\n0\r\n\r\n", limit: 8, .tooLarge),
        .refuses("huge chunk under a small limit", "fffffffffffffff\r\n", limit: 1024, .tooLarge),
    ]
}

@Suite struct ChunkedDecoderTests {
    /// Decodes `input[range]` through a guarded copy; consumed counts are relative to the range.
    static func decode(
        _ decoder: inout ChunkedDecoder, _ input: [UInt8], _ range: Range<Int>, into body: inout [UInt8], buffer: GuardedBuffer
    ) -> ChunkedDecodeResult {
        buffer.withBytes(input[range]) { decoder.decode($0, into: &body) }
    }

    /// The whole-input result seen from a call that started at `offset`.
    static func expected(_ row: ChunkedCase, from offset: Int) -> ChunkedDecodeResult {
        if case .done(let consumed) = row.expected { return .done(consumed: consumed - offset) }
        return row.expected
    }

    static func checkBody(_ row: ChunkedCase, _ body: [UInt8], _ comment: Comment) {
        if case .failure = row.expected { return }
        #expect(String(decoding: body, as: UTF8.self) == row.body, comment)
    }

    @Suite struct Table {
        @Test(arguments: ChunkedCase.all)
        func decodesWholeInput(_ row: ChunkedCase) {
            var decoder = ChunkedDecoder(limit: row.limit)
            var body: [UInt8] = []
            let buffer = GuardedBuffer(capacity: row.input.count)
            #expect(ChunkedDecoderTests.decode(&decoder, row.input, 0..<row.input.count, into: &body, buffer: buffer) == row.expected)
            ChunkedDecoderTests.checkBody(row, body, "whole input")
        }

        @Test(arguments: ChunkedCase.all)
        func givesTheSameResultWhenSplitAtEveryOffset(_ row: ChunkedCase) {
            let buffer = GuardedBuffer(capacity: row.input.count)
            for split in 1..<max(1, row.input.count) {
                var decoder = ChunkedDecoder(limit: row.limit)
                var body: [UInt8] = []
                let first = ChunkedDecoderTests.decode(&decoder, row.input, 0..<split, into: &body, buffer: buffer)
                if first == .needMore {
                    let rest = ChunkedDecoderTests.decode(&decoder, row.input, split..<row.input.count, into: &body, buffer: buffer)
                    #expect(rest == ChunkedDecoderTests.expected(row, from: split), "split at \(split)")
                } else {
                    #expect(first == row.expected, "first \(split) bytes")
                }
                ChunkedDecoderTests.checkBody(row, body, "split at \(split)")
            }
        }

        @Test(arguments: ChunkedCase.all)
        func givesTheSameResultWhenFedByteByByte(_ row: ChunkedCase) {
            let buffer = GuardedBuffer(capacity: 1)
            var decoder = ChunkedDecoder(limit: row.limit)
            var body: [UInt8] = []
            var result = ChunkedDecodeResult.needMore
            var offset = 0
            while offset < row.input.count, result == .needMore {
                result = ChunkedDecoderTests.decode(&decoder, row.input, offset..<offset + 1, into: &body, buffer: buffer)
                offset += 1
            }
            #expect(result == ChunkedDecoderTests.expected(row, from: offset - 1), "stopped after \(offset) bytes")
            ChunkedDecoderTests.checkBody(row, body, "byte by byte")
        }
    }

    @Suite struct Bounds {
        @Test func refusesAnOverlongChunkExtension() {
            var decoder = ChunkedDecoder(limit: 1024)
            var body: [UInt8] = []
            let input = Array(("5;" + String(repeating: "x", count: 5000) + "\r\nhello\r\n0\r\n\r\n").utf8)
            let buffer = GuardedBuffer(capacity: input.count)
            let result = ChunkedDecoderTests.decode(&decoder, input, 0..<input.count, into: &body, buffer: buffer)
            #expect(result == .failure(.malformed("chunk extension too long")))
        }

        @Test func refusesAnOverlongTrailerSection() {
            var decoder = ChunkedDecoder(limit: 1024)
            var body: [UInt8] = []
            let input = Array(("0\r\nX-Big: " + String(repeating: "x", count: 20_000) + "\r\n\r\n").utf8)
            let buffer = GuardedBuffer(capacity: input.count)
            let result = ChunkedDecoderTests.decode(&decoder, input, 0..<input.count, into: &body, buffer: buffer)
            #expect(result == .failure(.malformed("trailer section too large")))
        }
    }
}
