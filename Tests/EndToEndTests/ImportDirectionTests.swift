import Foundation
import Testing

/// ARCHITECTURE's arrows, checked on the sources: each target imports only the project
/// modules it is allowed to, and LatchkeyCore imports SQLite and PostgreSQL `internal`ly, so the compiler
/// refuses any public declaration of the domain that names a storage type.
@Suite struct ImportDirectionTests {
    private static let sources = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Project modules each target may import; system modules are not listed.
    private static let allowed: [String: Set<String>] = [
        "HTTPServer": ["CLinuxShims", "Threads", "FlatJSON"],
        "SchemaMigrations": ["SQLValues"],
        "SQLValues": [],
        "SQLite": ["CSQLite", "SchemaMigrations", "SQLValues"],
        "PostgreSQL": ["CPostgreSQL", "SchemaMigrations", "SQLValues"],
        "AuthCrypto": ["COpenSSL", "FlatJSON", "CBOR"],
        "ClientSocket": ["COpenSSL"],
        "HTTPSClient": ["ClientSocket"],
        "SMTP": ["ClientSocket", "COpenSSL"],
        "FlatJSON": [],
        "CBOR": [],
        "JSONStream": [],
        "Threads": [],
        "LatchkeyCore": ["SQLite", "PostgreSQL", "SchemaMigrations", "SQLValues", "AuthCrypto", "CBOR", "FlatJSON", "JSONStream", "Threads", "HTTPSClient"],
        "LatchkeyAPI": ["HTTPServer", "LatchkeyCore", "FlatJSON", "Threads"],
        // The client ships in apps: none of the server's modules (nor their C libraries).
        "LatchkeyClient": [],
    ]

    /// Targets that run in apps, where Foundation (URLSession) is the point.
    private static let clientTargets: Set<String> = ["LatchkeyClient"]

    private static func imports(in target: String) throws -> [(file: String, access: String, module: String)] {
        let directory = sources.appendingPathComponent(target)
        guard let files = FileManager.default.enumerator(atPath: directory.path) else { return [] }
        var found: [(String, String, String)] = []
        for case let file as String in files where file.hasSuffix(".swift") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for line in text.split(separator: "\n").prefix(40) {
                let words = line.split(separator: " ")
                if words.count == 2, words[0] == "import" { found.append((file, "", String(words[1]))) }
                if words.count == 3, words[1] == "import" { found.append((file, String(words[0]), String(words[1 + 1]))) }
            }
        }
        return found
    }

    private static var projectModules: Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? [])
    }

    @Test(arguments: allowed.keys.sorted())
    func targetImportsOnlyWhatItsArrowsAllow(_ target: String) throws {
        let modules = Self.projectModules
        #expect(modules.contains(target) || target == "Threads", "no such target: \(target)")
        for (file, _, module) in try Self.imports(in: target) where modules.contains(module) {
            #expect(Self.allowed[target]!.contains(module), "\(target)/\(file) imports \(module)")
        }
    }

    @Test func noLibraryTargetImportsAllOfFoundation() throws {
        for target in Self.allowed.keys where !Self.clientTargets.contains(target) {
            for (file, _, module) in try Self.imports(in: target) {
                #expect(module != "Foundation", "\(target)/\(file) imports Foundation (and with it ICU); use FoundationEssentials")
            }
        }
    }

    /// Inside LatchkeyCore each driver is imported in its own room, `Storage/SQLite/` or
    /// `Storage/PostgreSQL/`, and besides only in the neutral files that hold one case per
    /// backend or copy one into the other.
    @Test(arguments: ["SQLite", "PostgreSQL"])
    func aDriverIsImportedOnlyInItsOwnFolder(_ driver: String) throws {
        let spanningBoth: Set = ["Storage/StoreConnection.swift", "Storage/StoreRow.swift", "Storage/DatabaseTransfer.swift"]
        for (file, _, module) in try Self.imports(in: "LatchkeyCore") where module == driver {
            #expect(file.hasPrefix("Storage/\(driver)/") || spanningBoth.contains(file), "LatchkeyCore/\(file) imports \(driver) outside Storage/\(driver)/")
        }
    }

    @Test(arguments: ["SQLite", "PostgreSQL"])
    func theDomainImportsItsStorageInternally(_ storage: String) throws {
        let storageImports = try Self.imports(in: "LatchkeyCore").filter { $0.module == storage }
        #expect(!storageImports.isEmpty)
        for (file, access, _) in storageImports {
            #expect(access == "internal", "LatchkeyCore/\(file) imports \(storage) without `internal`")
        }
    }
}
