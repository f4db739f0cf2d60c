import AuthCrypto
import Foundation
import LatchkeyAPI
import LatchkeyCore
import Logging
import Testing
import TestSupport

/// The OpenAPI document: the binary serves exactly openapi/openapi.yaml, the document is
/// OpenAPI 3.1, and its operations and their statuses are exactly the endpoint rows of the
/// users' reference, docs/api.md.
@Suite struct OpenAPITests {
    private static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    private static let documentPath = repositoryRoot.appendingPathComponent("openapi/openapi.yaml").path
    private static let referencePath = repositoryRoot.appendingPathComponent("docs/api.md").path

    @Test func servesTheDocumentOnDiskByteForByteWithNoFilesBesideTheBinary() throws {
        let onDisk = try Data(contentsOf: URL(fileURLWithPath: Self.documentPath))
        // An empty working directory: the document must come from the binary itself.
        let server = try LatchkeyProcess(currentDirectory: LatchkeyProcess.makeTemporaryDirectory())
        defer { server.terminate() }
        let port = try server.waitUntilListening()
        let response = try RawConnection(port: port).request("GET /openapi.yaml HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "application/yaml")
        #expect(response.header("Cache-Control") == "public, max-age=300")
        let servedIsFile = response.body == Array(onDisk)
        #expect(servedIsFile, "served \(response.body.count) bytes, the file has \(onDisk.count): run scripts/embed-openapi after changing openapi/openapi.yaml")
    }

    @Test func documentIsYAMLAndOpenAPI31WithEveryReferenceResolved() throws {
        let summary = try Self.summary()
        #expect(summary["openapi"] as? String == "3.1.0")
        #expect(summary["title"] as? String == "Latchkey")
        #expect(summary["version"] as? String == "0.1.0")
        #expect(summary["servers"] as? [String] == ["http://127.0.0.1:8080"])
        #expect(summary["problems"] as? [String] == [])
    }

    @Test func operationsAndTheirStatusesAreExactlyTheRowsOfTheReference() throws {
        let reference = try Self.referenceOperations()
        let documented = try #require(Self.summary()["statuses"] as? [String: [String]]).mapValues(Set.init)
        #expect(reference.count >= 30, "found only \(reference.keys.sorted()) in \(Self.referencePath)")
        #expect(Set(reference.keys).subtracting(documented.keys).sorted() == [], "in docs/api.md but not in openapi/openapi.yaml")
        #expect(Set(documented.keys).subtracting(reference.keys).sorted() == [], "in openapi/openapi.yaml but not in docs/api.md")
        for (operation, statuses) in reference.sorted(by: { $0.key < $1.key }) {
            guard let listed = documented[operation] else { continue }
            // 500 can answer anything, and `default` is no status: neither is listed per row.
            #expect(statuses == listed.subtracting(["500", "default"]), "\(operation): docs/api.md lists \(statuses.sorted()), the document \(listed.sorted())")
        }
    }

    /// Every route the server registers is an operation of the document, and every
    /// operation a route (HEAD is GET's; path parameters compared by position).
    @Test func theRouterAndTheDocumentNameTheSameOperations() throws {
        let folder = LatchkeyProcess.makeTemporaryDirectory()
        let database = try Database(path: folder + "/latchkey.sqlite")
        let core = try CoreServices(
            database: database, keys: CurrentKeyring(try Keyring(keys: [try SigningKey(id: "k1", secret: Array(repeating: 7, count: 32))])),
            refreshKey: RefreshTokenKey(secret: Array(repeating: 9, count: 32)),
            policy: AccountsPolicy(issuer: "http://127.0.0.1:8080", reservedDisplayNames: ReservedDisplayNames([])),
            mail: MailComposer(publicURL: "http://127.0.0.1:8080", outboxKey: OutboxKey(secret: Array(repeating: 7, count: 32))!), mailQueued: {}, hashingThreads: 1,
            picturesDirectory: folder + "/pictures", publicURL: "http://127.0.0.1:8080"
        )
        let service = try LatchkeyService(core: core, options: ServiceOptions(ipRatePerMinute: 60, trustedProxies: [], eventLoops: 1), logger: Logger(label: "test"))
        let routed = Set(service.makeRouter().table.map { Self.operation($0.method, $0.pattern) })
        let documented = Set(try #require(Self.summary()["statuses"] as? [String: [String]]).keys
            .map { key in let parts = key.split(separator: " "); return Self.operation(String(parts[0]), String(parts[1])) })
            .subtracting(routed.filter { $0.hasPrefix("GET ") }.map { "HEAD" + $0.dropFirst(3) })
        #expect(routed.subtracting(documented).sorted() == [], "routes the document does not describe")
        #expect(documented.subtracting(routed).sorted() == [], "operations of the document no route serves")
    }

    /// `METHOD /path` with every `{parameter}` written `{}`.
    private static func operation(_ method: String, _ pattern: String) -> String {
        method + " " + pattern.replacing(/\{[^}]*\}/, with: "{}")
    }

    /// `METHOD /path` from the first cell of every table row, e.g. "| `POST /v1/auth/signup` |",
    /// with the statuses named in its success and errors cells (the third and fourth); the
    /// query is dropped, and a further bare method in the cell ("and `HEAD`") names the
    /// same path.
    private static func referenceOperations() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: referencePath, encoding: .utf8)
        let methods: Set<Substring> = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]
        var operations: [String: Set<String>] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false)
            guard cells.count > 5 else { continue }
            let spans = cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map(\.element)
            var path: Substring?
            var cellMethods: [Substring] = []
            for span in spans {
                let words = span.split(separator: " ")
                if words.count == 2, methods.contains(words[0]), words[1].hasPrefix("/"), path == nil {
                    cellMethods.append(words[0])
                    path = words[1].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
                } else if words.count == 1, methods.contains(words[0]), path != nil {
                    cellMethods.append(words[0])
                }
            }
            guard let path else { continue }
            let statuses = Set((cells[3] + " " + cells[4]).matches(of: /\b[1-5][0-9][0-9]\b/).map { String($0.output) })
            for method in cellMethods { operations["\(method) \(path)"] = statuses }
        }
        return operations
    }

    /// Parses the document with PyYAML (the venv of scripts/install-test-deps) and answers
    /// its version, info, servers, operations and every structural problem found.
    private static func summary() throws -> [String: Any] {
        let output = try runPython(pythonSummary, arguments: [documentPath])
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    private static let pythonSummary = #"""
import json, re, sys
import yaml

with open(sys.argv[1], encoding="utf-8") as f:
    doc = yaml.safe_load(f)
problems = []
try:
    json.dumps(doc)
except (TypeError, ValueError) as error:
    problems.append("not JSON-compatible: %s" % error)

def resolve(ref):
    if not ref.startswith("#/"):
        return None
    node = doc
    for part in ref[2:].split("/"):
        part = part.replace("~1", "/").replace("~0", "~")
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node

def walk(node, where):
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and resolve(ref) is None:
            problems.append("%s: unresolved $ref %s" % (where, ref))
        for key, value in node.items():
            walk(value, "%s/%s" % (where, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            walk(value, "%s/%d" % (where, index))

walk(doc, "#")

def parameters(node):
    found = []
    for parameter in node.get("parameters", []) or []:
        if "$ref" in parameter:
            parameter = resolve(parameter["$ref"]) or {}
        found.append(parameter)
    return found

methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]
operations = []
statuses = {}
operation_ids = set()
for path, item in (doc.get("paths") or {}).items():
    declared_in_path = set(re.findall(r"\{([^}]+)\}", path))
    for method in methods:
        operation = item.get(method)
        if operation is None:
            continue
        name = "%s %s" % (method.upper(), path)
        operations.append(name)
        statuses[name] = sorted(str(code) for code in (operation.get("responses") or {}))
        if not operation.get("responses"):
            problems.append("%s: no responses" % name)
        operation_id = operation.get("operationId")
        if not operation_id or operation_id in operation_ids:
            problems.append("%s: missing or repeated operationId" % name)
        operation_ids.add(operation_id)
        path_parameters = {p.get("name") for p in parameters(item) + parameters(operation) if p.get("in") == "path"}
        if path_parameters != declared_in_path:
            problems.append("%s: path parameters %s, declared %s" % (name, sorted(declared_in_path), sorted(path_parameters)))

info = doc.get("info") or {}
print(json.dumps({
    "openapi": doc.get("openapi"),
    "title": info.get("title"),
    "version": info.get("version"),
    "servers": [server.get("url") for server in doc.get("servers") or []],
    "operations": operations,
    "statuses": statuses,
    "problems": problems,
}))
"""#
}
