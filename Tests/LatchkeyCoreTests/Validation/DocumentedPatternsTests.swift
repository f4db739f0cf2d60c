import Foundation
@testable import LatchkeyCore
import Testing
import TestSupport

/// The OpenAPI document's `pattern`s for email, display name and photo URL accept exactly
/// what the server's rules accept, so a client generated from the document refuses what
/// the server would refuse, and no more.
@Suite struct DocumentedPatternsTests {
    static let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("openapi/openapi.yaml").path

    static func patterns() throws -> [String: String] {
        let output = try runPython("""
            import json, sys, yaml
            schemas = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))["components"]["schemas"]
            print(json.dumps({
                "email": schemas["SignupRequest"]["properties"]["email"]["pattern"],
                "displayName": schemas["SignupRequest"]["properties"]["displayName"]["pattern"],
                "displayNameUpdate": schemas["UpdateMeRequest"]["properties"]["displayName"]["pattern"],
                "photoURL": schemas["UpdateMeRequest"]["properties"]["photoURL"]["pattern"],
            }))
            """, arguments: [document])
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: String])
    }

    static func accepts(_ pattern: String, _ input: String) throws -> Bool {
        try NSRegularExpression(pattern: pattern).firstMatch(in: input, range: NSRange(input.startIndex..., in: input)) != nil
    }

    /// Mostly characters a part allows, sometimes anything, so both answers come up.
    static func generated(_ alphabet: String, _ count: Int) -> [String] {
        var generator = ValidationRulesTests.SeededGenerator(seed: 0xD0C5)
        let characters = Array(alphabet)
        return (0..<count).map { _ in
            String((0..<Int.random(in: 0...14, using: &generator)).map { _ in characters.randomElement(using: &generator)! })
        }
    }

    /// A client checking `GET /openapi.yaml` against the document itself must find a YAML
    /// document (an object), not a string.
    @Test func theDocumentDescribesItsOwnBodyAsAYAMLObject() throws {
        let output = try runPython("""
            import sys, yaml
            doc = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
            content = doc["paths"]["/openapi.yaml"]["get"]["responses"]["200"]["content"]
            print(" ".join(sorted(content)), content["application/yaml"]["schema"]["type"])
            """, arguments: [Self.document])
        #expect(output == "application/yaml object")
    }

    @Test func theEmailPatternIsTheServersRule() throws {
        let pattern = try #require(try Self.patterns()["email"])
        #expect(pattern == EmailPattern.regularExpression)
        let inputs = ["a@b.co", "a@..com", "a@-x.com", ".a@x.com", "a.b@x-y.z.com"] + Self.generated("ab.-@_%+9é", 3000)
        for input in inputs {
            #expect(try Self.accepts(pattern, input) == EmailPattern.matches(input), "\(input)")
        }
    }

    @Test func theDisplayNamePatternAndLengthsAreTheServersRule() throws {
        let patterns = try Self.patterns()
        let pattern = try #require(patterns["displayName"])
        #expect(patterns["displayNameUpdate"] == pattern)
        for input in ["ada", "a.b", ".ab", "ab.", "a..b", "Ada_L.9", "ada-l"] + Self.generated("aZ9_.-é ", 3000) {
            let documented = try Self.accepts(pattern, input) && (3...30).contains(input.count)
            #expect(documented == (DisplayNameRules.check(input) == .valid), "\(input)")
        }
    }

    @Test func thePhotoURLPatternAndLengthAreTheServersRule() throws {
        let pattern = try #require(try Self.patterns()["photoURL"])
        let inputs = ["https://example.com/a.png", "HTTPS://x", "https:///x", "https://?q", "http://x.com", "https://a b", "https://é.com",
                      "https://" + String(repeating: "x", count: 2040)] + Self.generated("hts:/?#x. é%a1<", 3000).map { "https://" + $0 }
        for input in inputs {
            let documented = try Self.accepts(pattern, input) && input.unicodeScalars.count <= 2048
            #expect(documented == ProfileChange.isAcceptablePhotoURL(input), "\(input)")
        }
    }
}
