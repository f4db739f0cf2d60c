import Foundation

/// Apple's token and revocation endpoints played by Tests/Tools/fake_apple_endpoints.py over
/// HTTPS, with a certificate and a Sign in with Apple key (`.p8`, PKCS#8 PEM as Apple's) the
/// test made: the fake checks every client secret against that key and records what it
/// accepted. `stop()` plays Apple being down; `start()` brings it back on the same port.
public final class FakeAppleEndpoints {
    public static let teamID = "TEAM123456"
    public static let keyID = "KEY7654321"
    public static let clientIDs = ["com.example.app", "com.example.web"]

    public let certificate: TestCertificate
    /// The team's key, as `appleKeyFile` names it.
    public let keyPath: String
    public let server: PythonServer
    private let recordPath: String

    /// `keyPath`: the key the fake checks secrets against; a new one when nil.
    public init(keyPath: String? = nil) throws {
        certificate = try TestCertificate()
        let directory = LatchkeyProcess.makeTemporaryDirectory()
        if let keyPath {
            self.keyPath = keyPath
        } else {
            self.keyPath = directory + "/AuthKey_\(Self.keyID).p8"
            try Self.generateKey(at: self.keyPath)
        }
        recordPath = directory + "/record.jsonl"
        server = try PythonServer(script: "fake_apple_endpoints.py", arguments: [
            "--cert", certificate.certificatePath, "--key", certificate.keyPath, "--apple-key", self.keyPath,
            "--team-id", Self.teamID, "--key-id", Self.keyID, "--client-ids", Self.clientIDs.joined(separator: ","), "--record", recordPath,
        ])
    }

    /// `appleBaseURL`: the fake's origin, as the issuer `https://appleid.apple.com` is Apple's.
    public var baseURL: String { "https://127.0.0.1:\(server.port)" }

    /// The settings a user would set, pointed at the fake, with the test's CA trusted.
    public var serveArguments: [String] {
        ["--apple-team-id", Self.teamID, "--apple-key-id", Self.keyID, "--apple-key-file", keyPath,
         "--apple-base-url", baseURL, "--outbound-ca-file", certificate.certificatePath]
    }

    public func stop() { server.stop() }

    public func start() throws { try server.start() }

    /// What the fake accepted (and refused), in order: `kind` is exchange, revoke or refused.
    public func records() -> [[String: String]] { AppleEndpointRecords(path: recordPath).all() }

    public func records(_ kind: String) -> [[String: String]] { AppleEndpointRecords(path: recordPath).of(kind) }

    /// Waits (at most `timeout` seconds) until `kind` has been recorded `count` times.
    public func waitFor(_ kind: String, count: Int = 1, timeout: Double = 30) -> [[String: String]] {
        AppleEndpointRecords(path: recordPath).waitFor(kind, count: count, timeout: timeout)
    }

    /// A P-256 key in PKCS#8 PEM (`BEGIN PRIVATE KEY`), the form of Apple's `.p8` files.
    public static func generateKey(at path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestError("openssl genpkey failed with status \(process.terminationStatus)") }
    }
}
