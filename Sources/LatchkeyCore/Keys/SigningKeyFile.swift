import AuthCrypto
import FoundationEssentials
import Glibc

public struct SigningKeyFileError: Error, CustomStringConvertible {
    public let description: String
}

/// The signing key generated into the data directory on first start, so a laptop needs
/// no key configuration. One `kid:base64key` line, file mode 0600.
public enum SigningKeyFile {
    public static let fileName = "signing-key"

    /// Reads the key file, creating it with a new random key if it does not exist.
    public static func loadOrCreate(inDirectory directory: String) throws -> SigningKey {
        let path = directory + "/" + fileName
        if !FileManager.default.fileExists(atPath: path) {
            try create(at: path)
        }
        guard let text = FileManager.default.contents(atPath: path).flatMap({ String(data: $0, encoding: .utf8) }) else {
            throw SigningKeyFileError(description: "cannot read the signing key file \(path)")
        }
        let parts = text.trimmingWhitespace().split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let secret = Data(base64Encoded: String(parts[1])),
              let key = try? SigningKey(id: String(parts[0]), secret: Array(secret)) else {
            throw SigningKeyFileError(description: "the signing key file \(path) is malformed; delete it to generate a new key (this signs everyone out)")
        }
        return key
    }

    private static func create(at path: String) throws {
        let id = SecureRandom.bytes(6).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        let line = id + ":" + Data(SecureRandom.bytes(64)).base64EncodedString() + "\n"
        // O_EXCL: two processes starting at once must not both write a key.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST { return }
            throw SigningKeyFileError(description: "cannot create the signing key file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let written = line.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        guard written == line.utf8.count, fsync(fd) == 0 else {
            unlink(path)
            throw SigningKeyFileError(description: "cannot write the signing key file \(path)")
        }
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
