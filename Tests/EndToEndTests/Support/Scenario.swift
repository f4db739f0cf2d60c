import Foundation
import Testing
import TestSupport

/// One row of a PocketBase-style scenario table: a request and what its answer must and
/// must not hold. Rows run in order against one server, so a row may rely on the ones
/// before it.
struct Scenario {
    var name: String
    var method: String
    var path: String
    var headers: [String: String] = [:]
    var token: String?
    var body: RequestBody?
    var status: Int
    var code: String?
    var field: String?
    var reason: String?
    /// Text the response body must contain.
    var contains: [String] = []
    /// Text the response body must not contain: a password, a token, a hash.
    var excludes: [String] = []

    init(
        _ name: String, _ method: String, _ path: String, headers: [String: String] = [:], token: String? = nil,
        json: [String: Any]? = nil, raw: (text: String, contentType: String?)? = nil,
        status: Int, code: String? = nil, field: String? = nil, reason: String? = nil,
        contains: [String] = [], excludes: [String] = []
    ) {
        (self.name, self.method, self.path, self.headers, self.token) = (name, method, path, headers, token)
        body = json.map(RequestBody.json) ?? raw.map { RequestBody.raw($0.text, contentType: $0.contentType) }
        (self.status, self.code, self.field, self.reason) = (status, code, field, reason)
        (self.contains, self.excludes) = (contains, excludes)
    }
}

extension AccountServer {
    /// Runs every row and checks it; returns the responses by row name for follow-up checks.
    @discardableResult
    func run(_ scenarios: [Scenario], sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: JSONResponse] {
        var responses: [String: JSONResponse] = [:]
        for row in scenarios {
            let response = try TestSupport.call(port: port, row.method, row.path, body: row.body, token: row.token, headers: row.headers)
            responses[row.name] = response
            let label = "[\(row.name)] \(row.method) \(row.path)"
            if row.status >= 400 {
                expectProblem(response, row.status, row.code, field: row.field, reason: row.reason, label, sourceLocation: sourceLocation)
            } else {
                #expect(response.status == row.status, "\(label): \(response)", sourceLocation: sourceLocation)
                expectCommonHeaders(response, label, sourceLocation: sourceLocation)
                if let reason = row.reason {
                    #expect(response["reason"] as? String == reason, "\(label): \(response)", sourceLocation: sourceLocation)
                }
            }
            // JSON may escape "/" as "\/"; the text is compared as a person reads it.
            let readable = response.text.replacingOccurrences(of: "\\/", with: "/")
            for text in row.contains {
                #expect(readable.contains(text), "\(label) must contain \(text): \(response)", sourceLocation: sourceLocation)
            }
            for text in row.excludes where !text.isEmpty {
                #expect(!readable.contains(text) && !response.text.contains(text), "\(label) must not contain \(text): \(response)", sourceLocation: sourceLocation)
            }
            expectNoSecrets(response, sourceLocation: sourceLocation)
        }
        return responses
    }
}
