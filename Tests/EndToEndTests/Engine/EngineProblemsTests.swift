import Foundation
import Testing
import TestSupport

/// The failures the HTTP engine answers before any handler runs (and the 500 of an error
/// nobody expected) are problems like every other: the contract's `code`, and
/// `Cache-Control: no-store` (docs/api.md, "Errors"), since they pass through the one
/// renderer of `LatchkeyAPI`.
@Suite struct EngineProblems {
    struct Row: Sendable, CustomTestStringConvertible {
        let request: String
        let status: Int
        let code: String
        var testDescription: String { "\(status) \(code)" }
    }

    static let rows: [Row] = [
        Row(request: "GET /nowhere HTTP/1.1\r\nHost: a\r\n\r\n", status: 404, code: "NOT_FOUND"),
        Row(request: "DELETE /healthz HTTP/1.1\r\nHost: a\r\n\r\n", status: 405, code: "METHOD_NOT_ALLOWED"),
        Row(request: "GET /healthz HTTP/1.1\r\nHost: a\r\nBad Name: v\r\n\r\n", status: 400, code: "BAD_REQUEST"),
        Row(request: "GET /\(String(repeating: "a", count: 9000)) HTTP/1.1\r\nHost: a\r\n\r\n", status: 414, code: "URI_TOO_LONG"),
        Row(request: "GET /healthz HTTP/1.1\r\nHost: a\r\nX-Big: \(String(repeating: "b", count: 33 * 1024))\r\n\r\n",
            status: 431, code: "HEADER_FIELDS_TOO_LARGE"),
        Row(request: "GET /healthz HTTP/1.1\r\nHost: a\r\nExpect: something-else\r\n\r\n", status: 417, code: "EXPECTATION_FAILED"),
        Row(request: "POST /v1/auth/login HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n",
            status: 501, code: "NOT_IMPLEMENTED"),
        Row(request: "GET /healthz HTTP/2.0\r\nHost: a\r\n\r\n", status: 505, code: "HTTP_VERSION_NOT_SUPPORTED"),
        Row(request: "POST /v1/auth/login HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 999999\r\n\r\n",
            status: 413, code: "PAYLOAD_TOO_LARGE"),
    ]

    @Test func everyFailureTheEngineAnswersIsAProblemWithItsCodeAndNoStore() throws {
        let server = try AccountServer()
        defer { server.stop() }
        for row in Self.rows {
            let connection = try RawConnection(port: server.port)
            try connection.send(row.request)
            let response = JSONResponse(try connection.readResponse())
            expectProblem(response, row.status, row.code, row.testDescription)
        }
    }

    /// An error no mapping knows (here the pictures folder is a file, so no upload can be
    /// stored) is 500 `INTERNAL`, with the same headers as every problem.
    @Test func anUnexpectedErrorIs500InternalWithNoStore() throws {
        let server = try AccountServer()
        defer { server.stop() }
        let ada = try server.signUp("ada@example.com", "ada")
        let pictures = server.dataDirectory + "/uploads/profile_pictures"
        try? FileManager.default.removeItem(atPath: pictures)
        try FileManager.default.createDirectory(atPath: server.dataDirectory + "/uploads", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: pictures, contents: Data("not a folder".utf8)))
        let answer = try call(port: server.port, "PUT", "/v1/users/me/photo", body: .bytes([0x89, 0x50], contentType: "image/png"), token: ada.accessToken)
        expectProblem(answer, 500, "INTERNAL")
    }
}
