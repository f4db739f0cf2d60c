import AuthCrypto
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

    @Test func decodesEveryStringEscape() {
        let object = parse(#"{"k": "q\" b\\ s\/ \b\f\n\r\t \u00e9 \ud83d\udd11"}"#)
        #expect(object?.string("k") == "q\" b\\ s/ \u{08}\u{0C}\n\r\t é 🔑")
    }

    @Test(arguments: [
        "", "[]", "{", "{\"a\":1,}", "{\"a\" 1}", "{\"a\":{}}", "{\"a\":[1]}", "{\"a\":01}", "{\"a\":1.}",
        "{\"a\":tru}", "{\"a\":\"x}", "{\"a\":\"\u{01}\"}", "{\"a\":\"\\x\"}", "{\"a\":\"\\ud800\"}", "{} x", "{a:1}",
    ])
    func refusesAnythingButOneFlatObject(_ text: String) {
        #expect(parse(text) == nil)
    }
}
