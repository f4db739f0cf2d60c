import Testing
import TestSupport
@testable import HTTPServer

@Suite struct HeadParserTests {
    /// Parses `input[0..<end]` through a guarded copy, resuming `parser`.
    static func parse(_ parser: inout HeadParser, _ input: [UInt8], upTo end: Int, in buffer: GuardedBuffer) -> HeadParseResult {
        buffer.withBytes(input[0..<end]) { parser.parse($0) }
    }

    @Suite struct WholeInput {
        @Test(arguments: HeadParserCase.all)
        func givesTheExpectedResult(_ row: HeadParserCase) {
            var parser = HeadParser(limits: row.limits)
            let buffer = GuardedBuffer(capacity: row.input.count)
            #expect(HeadParserTests.parse(&parser, row.input, upTo: row.input.count, in: buffer) == row.expected)
        }
    }

    @Suite struct SplitInput {
        @Test(arguments: HeadParserCase.all)
        func givesTheSameResultWhenSplitAtEveryOffset(_ row: HeadParserCase) {
            let buffer = GuardedBuffer(capacity: row.input.count)
            for split in 0..<row.input.count {
                var parser = HeadParser(limits: row.limits)
                let first = HeadParserTests.parse(&parser, row.input, upTo: split, in: buffer)
                if first == .incomplete {
                    let whole = HeadParserTests.parse(&parser, row.input, upTo: row.input.count, in: buffer)
                    #expect(whole == row.expected, "split at \(split)")
                } else {
                    #expect(first == row.expected, "first \(split) bytes")
                }
            }
        }

        @Test(arguments: HeadParserCase.all)
        func givesTheSameResultWhenFedByteByByte(_ row: HeadParserCase) {
            let buffer = GuardedBuffer(capacity: row.input.count)
            var parser = HeadParser(limits: row.limits)
            var result = HeadParseResult.incomplete
            var end = 0
            while end < row.input.count, result == .incomplete {
                end += 1
                result = HeadParserTests.parse(&parser, row.input, upTo: end, in: buffer)
            }
            #expect(result == row.expected, "stopped after \(end) bytes")
        }
    }

    @Suite struct Reuse {
        @Test func resetLetsTheParserReadTheNextPipelinedHead() {
            let first = Array("GET /a HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
            let second = Array("GET /b HTTP/1.1\r\nHost: b\r\n\r\n".utf8)
            let input = first + second
            let buffer = GuardedBuffer(capacity: input.count)
            var parser = HeadParser()
            let one = buffer.withBytes(input[...]) { parser.parse($0) }
            #expect(one == .complete(RequestHead(method: "GET", target: "/a", version: .http1_1, fields: [HTTPField(name: "Host", value: "a")]), consumed: first.count))
            parser.reset()
            let two = buffer.withBytes(input[first.count...]) { parser.parse($0) }
            #expect(two == .complete(RequestHead(method: "GET", target: "/b", version: .http1_1, fields: [HTTPField(name: "Host", value: "b")]), consumed: second.count))
        }

        @Test func fieldLookupIgnoresTheCaseOfNames() {
            let head = RequestHead(method: "GET", target: "/", version: .http1_1, fields: [
                HTTPField(name: "X-Thing", value: "1"), HTTPField(name: "x-thing", value: "2"), HTTPField(name: "X-Thin", value: "3"),
            ])
            #expect(head.field("x-THING") == "1")
            #expect(head.fieldValues("X-THING") == ["1", "2"])
            #expect(head.field("x-thin") == "3")
            #expect(head.field("x-things") == nil)
        }
    }
}

extension HeadParserTests {
    /// The parser skips printable bytes eight at a time: for every byte value at every
    /// place in and around a word, and every start and end, it stops exactly where a walk
    /// byte by byte stops, and never reads past the end it was given.
    @Suite struct PrintableRuns {
        static func reference(_ bytes: [UInt8], from start: Int, to end: Int) -> Int {
            var index = start
            while index < end, bytes[index] >= 0x20, bytes[index] != 0x7F { index += 1 }
            return index
        }

        @Test(arguments: 0...255)
        func stopsWhereAByteByByteWalkStops(_ value: Int) {
            let length = 19
            let buffer = GuardedBuffer(capacity: length)
            for position in 0..<length {
                for filler: UInt8 in [UInt8(ascii: "a"), 0x20, 0x7E, 0x80, 0xFF] {
                    var input = [UInt8](repeating: filler, count: length)
                    input[position] = UInt8(value)
                    for start in 0..<3 {
                        for end in [length, length - 1, 9, 8] where end >= start {
                            let found = buffer.withBytes(input[0..<end]) { HeadParser.skipPrintable($0, from: start, to: end) }
                            #expect(found == Self.reference(input, from: start, to: end), "byte \(value) at \(position), filler \(filler), \(start)..<\(end)")
                        }
                    }
                }
            }
        }
    }
}
