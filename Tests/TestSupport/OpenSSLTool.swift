import Foundation

/// Keys, signatures and certificates made by the `openssl` command (scripts/install-test-deps
/// installs it) in a directory of their own: an implementation other than the code under
/// test signs, so a verifier that agrees only with itself fails.
public struct OpenSSLTool {
    public let directory: URL

    public init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("latchkey-cose-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    public func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs `openssl arguments...` in the directory; its standard output.
    @discardableResult
    public func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestError("openssl \(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)")
        }
        return data
    }

    public func write(_ bytes: [UInt8], to name: String) throws {
        try Data(bytes).write(to: directory.appendingPathComponent(name))
    }

    public func read(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// A new private key in `name` (PEM); `options` are genpkey's `-algorithm` and `-pkeyopt`s.
    public func generateKey(_ name: String, _ options: [String]) throws {
        try run(["genpkey"] + options + ["-out", name])
    }

    /// The key's SubjectPublicKeyInfo, DER.
    public func publicKeyDER(_ key: String) throws -> [UInt8] {
        [UInt8](try run(["pkey", "-in", key, "-pubout", "-outform", "DER"]))
    }

    /// An RSA key's modulus, big-endian.
    public func rsaModulus(_ key: String) throws -> [UInt8] {
        let line = String(decoding: try run(["rsa", "-in", key, "-noout", "-modulus"]), as: UTF8.self)
        return [UInt8](hex: line.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "Modulus=", with: ""))
    }

    /// `message` signed with SHA-256 (ECDSA gives DER, RSA gives PKCS#1 v1.5).
    public func signSHA256(_ message: [UInt8], key: String) throws -> [UInt8] {
        try write(message, to: "message")
        try run(["dgst", "-sha256", "-sign", key, "-out", "signature", "message"])
        return try read("signature")
    }

    /// `message` signed with Ed25519 (pure: the message itself, not a digest).
    public func signEd25519(_ message: [UInt8], key: String) throws -> [UInt8] {
        try write(message, to: "message")
        try run(["pkeyutl", "-sign", "-inkey", key, "-rawin", "-in", "message", "-out", "signature"])
        return try read("signature")
    }

    /// A self-signed certificate (DER) for a new key of `keyOptions` (req's `-newkey` and
    /// `-pkeyopt`s), its key kept in `key`.
    public func selfSignedCertificate(key: String, _ keyOptions: [String]) throws -> [UInt8] {
        try run(["req", "-x509"] + keyOptions + ["-nodes", "-keyout", key, "-outform", "DER", "-out", "certificate.der",
                 "-days", "1", "-subj", "/CN=Latchkey test authenticator"])
        return try read("certificate.der")
    }
}
