import Foundation
import Testing

/// docs/architecture.md walks requests through the code by name: every name it quotes
/// (a `Type`, a `Type.member`, a path) must exist, so a rename cannot leave the map
/// pointing at nothing.
@Suite struct DocumentedNamesTests {
    /// The repository root: the nearest directory above this file that holds Package.swift.
    private static let root: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<8 where !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    /// Where a quoted name may be defined or spelled.
    private static let searched = ["Sources", "Tests", "migrations", "scripts", "bench", "Examples"]
    private static let searchedExtensions: Set<String> = ["swift", "sql", "h", "py", "sh", "yaml", "modulemap"]

    /// Everything a name may be found in, as one text: the files' text and their names
    /// and their folders' (`WireCodeTests`, `MailPages`). Hidden folders (an earlier
    /// build's sources kept by the bench in `bench/.baseline`) are not the code.
    private static func corpus() -> String {
        var text = ""
        for folder in searched {
            let files = FileManager.default.enumerator(
                at: root.appendingPathComponent(folder), includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles]
            )
            while let url = files?.nextObject() as? URL {
                text += url.deletingPathExtension().lastPathComponent + "\n"
                let isDirectory = (try? url.resourceValues(forKeys: [.isDirectoryKey]))?.isDirectory ?? false
                guard !isDirectory, searchedExtensions.contains(url.pathExtension) || url.pathExtension.isEmpty && folder == "scripts" else { continue }
                text += ((try? String(contentsOf: url, encoding: .utf8)) ?? "") + "\n"
            }
        }
        return text
    }

    /// The backquoted spans of `markdown` that name code: identifiers joined by dots
    /// (`CoreServices.verifier`), or repository paths (`Sources/LatchkeyAPI/Routing`).
    static func quotedNames(in markdown: String) -> (identifiers: [String], paths: [String]) {
        var identifiers: [String] = []
        var paths: [String] = []
        let spans = markdown.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
        for span in spans {
            let name = span.hasSuffix("()") ? String(span.dropLast(2)) : span
            if name.contains("/"), name.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+".contains($0) }), name.first!.isLetter {
                paths.append(name)
            } else if !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }), name.first!.isLetter, !name.hasSuffix(".") {
                identifiers.append(name)
            }
        }
        return (identifiers, paths)
    }

    @Test func everyNameTheArchitecturePageQuotesExists() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let (identifiers, paths) = Self.quotedNames(in: page)
        #expect(identifiers.count > 50, "the page quotes the code it walks through")
        let corpus = Self.corpus()
        let words = Set(corpus.split { !($0.isLetter || $0.isNumber || $0 == "_") }.map(String.init))
        let missing = identifiers.filter { name in !name.split(separator: ".").allSatisfy { words.contains(String($0)) } }
        #expect(missing.isEmpty, "quoted in docs/architecture.md, found nowhere in the code: \(missing)")
        // A path is the repository's, or a target's under Sources/.
        let absent = paths.filter { path in
            !["", "Sources/"].contains { FileManager.default.fileExists(atPath: Self.root.appendingPathComponent($0 + path).path) }
        }
        #expect(absent.isEmpty, "paths in docs/architecture.md that do not exist: \(absent)")
    }

    @Test func theQuotedNamesAreTheSpansThatNameCode() {
        let (identifiers, paths) = Self.quotedNames(in: "The `StoreReadRoutes.handler` ran `inline`; see `Sources/LatchkeyAPI/Support/` and `{dataDir}/key`.")
        #expect(identifiers == ["StoreReadRoutes.handler", "inline"])
        #expect(paths == ["Sources/LatchkeyAPI/Support/"])
    }
}
