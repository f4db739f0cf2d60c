import ClientSocket
import Foundation
import HTTPSClient
import Testing
import TestSupport

/// The server's outbound HTTPS against a real TLS server on 127.0.0.1 (Tests/Tools/https_fixture.py)
/// with a certificate the test made: answers framed every way HTTP/1.1 allows, and each
/// way an answer can be refused (a redirect, too large, too slow, malformed, a certificate
/// not trusted or for another host).
@Suite(.serialized) struct HTTPSClientTests {
    static let body = Array(#"{"keys": [{"kid": "one", "kty": "EC"}]}"#.utf8)

    let certificate: TestCertificate
    let server: PythonServer

    init() throws {
        certificate = try TestCertificate()
        server = try PythonServer(script: "https_fixture.py", arguments: ["--cert", certificate.certificatePath, "--key", certificate.keyPath])
    }

    func client(_ limits: HTTPSClient.Limits = .init()) throws -> HTTPSClient {
        HTTPSClient(context: try TLSContext(caFile: certificate.certificatePath), limits: limits)
    }

    func url(_ path: String, host: String = "127.0.0.1") -> String { "https://\(host):\(server.port)\(path)" }

    /// The socket's refusal of `request`, nil when it was answered or refused otherwise.
    func socketFailure(_ request: () throws(HTTPSError) -> HTTPSResponse) -> SocketError? {
        do {
            _ = try request()
            return nil
        } catch {
            if case .socket(let failure) = error { return failure }
            return nil
        }
    }

    @Test func anAnswerWithALengthIsReadWithItsHeaders() throws {
        let answer = try client().get(url("/json"))
        #expect(answer.status == 200)
        #expect(answer.body == Self.body)
        #expect(answer.header("cache-control") == "public, max-age=300", "header names compare without case")
        #expect(answer.header("Content-Type") == "application/json")
    }

    @Test(arguments: ["/chunked", "/until-close", "/interim"])
    func everyFramingGivesTheSameBody(_ path: String) throws {
        let answer = try client().get(url(path, host: "localhost"))
        #expect(answer.status == 200)
        #expect(answer.body == Self.body, "\(path): \(String(decoding: answer.body, as: UTF8.self))")
    }

    @Test func aFormPostIsEncodedAndFramed() throws {
        let answer = try client().post(url("/echo"), form: [("grant_type", "authorization_code"), ("code", "a b&c=d/é")])
        let echo = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        #expect(echo["method"] as? String == "POST")
        #expect(echo["body"] as? String == "grant_type=authorization_code&code=a+b%26c%3Dd%2F%C3%A9")
        let headers = echo["headers"] as? [String] ?? []
        #expect(headers.contains("Content-Type:application/x-www-form-urlencoded"), "\(headers)")
        #expect(headers.contains("Host:127.0.0.1:\(server.port)"), "\(headers)")
        #expect(headers.contains("Connection:close"), "\(headers)")
    }

    @Test func aRedirectIsRefusedNotFollowed() throws {
        #expect(throws: HTTPSError.redirectRefused(status: 302)) { try client().get(url("/redirect")) }
    }

    @Test func aBodyOrHeadOverTheLimitIsRefused() throws {
        #expect(throws: HTTPSError.tooLarge("a body of 2097152 bytes, over 1048576")) { try client().get(url("/huge")) }
        #expect(throws: HTTPSError.tooLarge("a head over 16384 bytes")) { try client().get(url("/huge-head")) }
    }

    @Test(arguments: ["/stall-head", "/stall-body"])
    func aServerThatStallsMeetsTheDeadline(_ path: String) throws {
        var limits = HTTPSClient.Limits()
        limits.totalTimeout = 1
        let started = Date()
        #expect(throws: HTTPSError.socket(.timedOut(path == "/stall-head" ? "the answer's head" : "the answer's body"))) {
            try client(limits).get(url(path))
        }
        #expect(Date().timeIntervalSince(started) < 5, "the whole exchange is bounded by its deadline")
    }

    @Test func aMalformedStatusLineIsRefused() throws {
        #expect(throws: HTTPSError.malformedResponse("a status line that is not HTTP/1.x NNN")) { try client().get(url("/bad-status")) }
    }

    /// An attacker on the path answers with a certificate of its own: the system's trust
    /// store (no CA file) does not know the test's, so nothing is read from it.
    @Test func aCertificateNotTrustedIsRefused() throws {
        let untrusting = HTTPSClient(context: try TLSContext())
        let failure = socketFailure { () throws(HTTPSError) in try untrusting.get(url("/json")) }
        guard case .tls(let why)? = failure else {
            Issue.record("not refused for its certificate: \(String(describing: failure))")
            return
        }
        #expect(why.contains("not trusted"), "\(why)")
    }

    /// A trusted certificate, but for another host: refused as well.
    @Test func aCertificateForAnotherHostIsRefused() throws {
        let other = try TestCertificate(names: "DNS:elsewhere.example")
        let impostor = try PythonServer(script: "https_fixture.py", arguments: ["--cert", other.certificatePath, "--key", other.keyPath])
        let trusting = HTTPSClient(context: try TLSContext(caFile: other.certificatePath))
        let failure = socketFailure { () throws(HTTPSError) in try trusting.get("https://127.0.0.1:\(impostor.port)/json") }
        guard case .tls(let why)? = failure else {
            Issue.record("not refused for its certificate: \(String(describing: failure))")
            return
        }
        #expect(why.contains("not trusted"), "\(why)")
    }

    @Test(arguments: [
        ("http://127.0.0.1/json", "not https"),
        ("https://user:secret@127.0.0.1/json", "user information in the URL"),
        ("https://127.0.0.1:0/json", "a port that is not a number from 1 to 65535"),
        ("https://127.0.0.1:99999/json", "a port that is not a number from 1 to 65535"),
        ("https://exa mple.com/", "spaces, control or non-ASCII characters"),
        ("https://exämple.com/", "spaces, control or non-ASCII characters"),
        ("https:///path", "no host, or one longer than 253 bytes"),
        ("https://a_b.example/", "a host name with characters outside letters, digits, '-' and '.'"),
    ])
    func aURLItCannotSafelyUseIsRefusedBeforeConnecting(_ url: String, _ why: String) throws {
        #expect(throws: HTTPSError.badURL(why)) { try client().get(url) }
    }

    /// A value carrying CR LF would add a header (or a whole request) of the caller's
    /// input: refused before anything is sent.
    @Test func aHeaderValueWithALineBreakIsRefused() throws {
        #expect(throws: HTTPSError.badURL("a request header with bytes outside visible ASCII")) {
            try client().get(url("/json"), headers: [("Authorization", "Bearer x\r\nX-Injected: 1")])
        }
    }

    @Test func nothingListeningIsAConnectError() throws {
        server.stop()
        let client = try client()
        let failure = socketFailure { () throws(HTTPSError) in try client.get(url("/json")) }
        guard case .connect(let why)? = failure else {
            Issue.record("not a connect error: \(String(describing: failure))")
            return
        }
        #expect(why.contains("Connection refused"), "\(why)")
    }
}
