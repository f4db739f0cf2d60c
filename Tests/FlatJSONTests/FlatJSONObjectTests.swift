import FlatJSON
import Testing

@Suite struct FlatJSONObjectTests {
    private func parse(_ text: String) -> FlatJSONObject? {
        var text = text
        return text.withUTF8 { FlatJSONObject(parsing: $0) }
    }

    @Test func readsEveryScalarKind() throws {
        let object = try #require(parse(#" { "s": "a", "i": -42, "big": 1795384816, "d": 1.5e3, "t": true, "f": false, "n": null } "#))
        #expect(object.string("s") == "a")
        #expect(object.integer("i") == -42)
        #expect(object.integer("big") == 1_795_384_816)
        #expect(object["d"] == .number(1500))
        #expect(object.bool("t") == true)
        #expect(object.bool("f") == false)
        #expect(object["n"] == .null)
        #expect(parse("{}")?.values.isEmpty == true)
    }

    /// A member name is compared by its bytes: one spelt with U+212A KELVIN SIGN (or
    /// U+00C5 as A and U+030A) is not the member it is canonically equivalent to, and both
    /// are kept, as every other JSON reader keeps them.
    @Test func memberNamesAreTheirBytes() throws {
        let object = try #require(parse(#"{"Key": "real", "\u212Aey": "kelvin", "\u00c5": "one", "A\u030a": "two"}"#))
        #expect(object.values.count == 4)
        #expect(object.string("Key") == "real")
        #expect(object.string("\u{212A}ey") == "kelvin")
        #expect(object.string("\u{C5}") == "one")
        #expect(object.string("A\u{30A}") == "two")
        let spoofed = try #require(parse(#"{"\u212Aey": "kelvin"}"#))
        #expect(spoofed.string("Key") == nil)
    }

    @Test func decodesEveryStringEscape() {
        let object = parse(#"{"k": "q\" b\\ s\/ \b\f\n\r\t \u00e9 \ud83d\udd11"}"#)
        #expect(object?.string("k") == "q\" b\\ s/ \u{08}\u{0C}\n\r\t é 🔑")
    }

    @Test func keepsNestedValuesOnlyAsComposite() throws {
        let object = try #require(parse(#"{"a": {"b": [1, "x", {"c": null}]}, "d": [], "e": "kept"}"#))
        #expect(object["a"] == .composite)
        #expect(object["d"] == .composite)
        #expect(object.string("e") == "kept")
    }

    /// An ID token's `aud` and `amr`: a member's array of strings only, where the parse
    /// asks for it; any other array, and arrays deeper down, stay composite.
    @Test func keepsAMembersStringArrayWhenAsked() throws {
        var text = #"{"aud": ["a", "b\u00e9"], "amr": [ ], "mixed": ["a", 1], "inner": {"x": ["y"]}, "deep": [["a"]]}"#
        let object = try #require(text.withUTF8 { FlatJSONObject(parsing: $0, keepingStringArrays: true) })
        #expect(object["aud"] == .strings(["a", "bé"]))
        #expect(object["amr"] == .strings([]))
        #expect(object["mixed"] == .composite)
        #expect(object["inner"] == .composite)
        #expect(object["deep"] == .composite)
        #expect(parse(text)?["aud"] == .composite, "kept only when asked")
        var broken = #"{"aud": ["a",]}"#
        #expect(broken.withUTF8 { FlatJSONObject(parsing: $0, keepingStringArrays: true) } == nil)
    }

    @Test func tellsJSONThatIsNotAnObjectFromNotJSON() {
        func wellFormed(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { FlatJSONObject.isWellFormed($0) }
        }
        #expect(wellFormed("[1, 2]"))
        #expect(wellFormed(" \"text\" "))
        #expect(wellFormed("42"))
        #expect(!wellFormed("{"))
        #expect(!wellFormed("nope"))
        #expect(!wellFormed(String(repeating: "[", count: 40) + String(repeating: "]", count: 40)), "nesting is bounded")
    }

    @Test(arguments: [
        "", "[]", "{", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":[1,]}", "{\"a\":{\"b\"}}", "{\"a\":01}", "{\"a\":1.}",
        "{\"a\":tru}", "{\"a\":\"x}", "{\"a\":\"\u{01}\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\ud800\"}", "{} x", "{a:1}",
    ])
    func refusesAnythingButOneFlatObject(_ text: String) {
        #expect(parse(text) == nil)
    }
}

@Suite struct FlatJSONObjectSerializationTests {
    @Test func writesSortedCompactJSONThatReadsBackTheSame() throws {
        let object = FlatJSONObject([
            "s": .string("quote \" backslash \\ newline \n tab \t bell \u{07} é"), "i": .integer(-7),
            "b": .bool(true), "n": .null, "d": .number(2.5),
        ])
        let bytes = object.serialized()
        #expect(String(decoding: bytes, as: UTF8.self).hasPrefix(#"{"b":true,"d":2.5,"i":-7,"n":null,"s":"quote \" backslash \\ newline \n tab \t bell \u0007"#))
        let parsed = try #require(bytes.withUnsafeBufferPointer { FlatJSONObject(parsing: $0) })
        #expect(parsed == object)
    }
}

@Suite struct FlatJSONQuotingTests {
    private func written(_ text: String) -> String {
        var text = text
        return text.withUTF8 { utf8 in
            String(unsafeUninitializedCapacity: 2 + 6 * utf8.count) { FlatJSONObject.writeQuoted(utf8, to: $0.baseAddress!) }
        }
    }

    @Test(arguments: ["", "/v1/users/{id}", "é 🔑 plain", "quote \" backslash \\", "cr \r lf \n tab \t nul \u{00} esc \u{1B} del \u{7F}"])
    func writingIntoSizedStorageQuotesAsAppendingDoes(_ text: String) throws {
        var appended: [UInt8] = []
        FlatJSONObject.appendQuoted(text, to: &appended)
        #expect(written(text) == String(decoding: appended, as: UTF8.self))
        let parsed = try #require(Array(#"{"k":"#.utf8 + appended + Array("}".utf8)).withUnsafeBufferPointer { FlatJSONObject(parsing: $0) })
        #expect(parsed.string("k") == text)
    }

    /// Plain text is recognised eight bytes at a time (`needsNoEscape`): every byte value,
    /// at every place in a word and in the tail after the last whole word, must be escaped
    /// exactly as the byte-by-byte rule says.
    @Test func everyByteIsEscapedAtEveryPlaceOfAWordAndOfTheTail() {
        func expected(_ bytes: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [UInt8(ascii: "\"")]
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
                case 0x0A: out += Array(#"\n"#.utf8)
                case 0x0D: out += Array(#"\r"#.utf8)
                case 0x09: out += Array(#"\t"#.utf8)
                case 0..<0x20: out += Array(#"\u00"#.utf8) + Array(String(byte, radix: 16).leftPadded(to: 2).utf8)
                default: out.append(byte)
                }
            }
            return out + [UInt8(ascii: "\"")]
        }
        var mismatches = 0
        for length in 1...19 {
            for place in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    text[place] = byte
                    let quoted = text.withUnsafeBufferPointer { utf8 in
                        [UInt8](unsafeUninitializedCapacity: 2 + 6 * utf8.count) { $1 = FlatJSONObject.writeQuoted(utf8, to: $0.baseAddress!) }
                    }
                    if quoted != expected(text) { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }

    @Test func everyControlCharacterIsEscapedAndTheWorstCaseFitsItsBound() {
        let controls = String(decoding: (0..<0x20).map { UInt8($0) }, as: UTF8.self)
        let quoted = written(controls)
        #expect(quoted.utf8.allSatisfy { $0 >= 0x20 })
        #expect(quoted.hasPrefix(#""\u0000\u0001"#) && quoted.contains(#"\n"#) && quoted.hasSuffix(#"\u001f""#))
        #expect(quoted.utf8.count <= 2 + 6 * controls.utf8.count)
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
