import FoundationEssentials
import Glibc

public struct SecretFileError: Error, CustomStringConvertible {
    public let description: String
}

/// A secret generated into the data directory on first start (mode 0600, written once
/// with O_EXCL and fsynced), so a laptop needs no key configuration.
enum SecretFile {
    /// The file's text, trimmed; `generate` makes the text when the file does not exist.
    static func loadOrCreate(_ path: String, describing what: String, generate: () -> String) throws -> String {
        if !FileManager.default.fileExists(atPath: path) {
            try create(path, describing: what, contents: generate() + "\n")
        }
        guard let text = FileManager.default.contents(atPath: path).flatMap({ String(data: $0, encoding: .utf8) }) else {
            throw SecretFileError(description: "cannot read the \(what) file \(path)")
        }
        return text.trimmingWhitespace()
    }

    private static func create(_ path: String, describing what: String, contents: String) throws {
        // O_EXCL: two processes starting at once must not both write a key.
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 {
            if errno == EEXIST { return }
            throw SecretFileError(description: "cannot create the \(what) file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let written = contents.utf8CString.withUnsafeBufferPointer { write(fd, $0.baseAddress, $0.count - 1) }
        guard written == contents.utf8.count, fsync(fd) == 0 else {
            unlink(path)
            throw SecretFileError(description: "cannot write the \(what) file \(path)")
        }
    }
}
