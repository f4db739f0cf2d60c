import AuthCrypto
import FoundationEssentials
import Glibc

/// The signing keyring kept in the data directory (mode 0600) unless `signingKeys` is
/// configured: one `kid:base64key:createdAt` line per key, the first signs and every one
/// verifies. Generated with one key on first start; `latchkey keys rotate|retire` rewrite
/// it whole (temporary file, fsync, rename) and a running server reads it again when it
/// changes. A file of an earlier version holds one `kid:base64key` line.
public enum SigningKeyFile {
    public static let fileName = "signing-key"

    public struct Entry: Sendable {
        public let key: SigningKey
        /// Unix seconds; for a line of an earlier version, the file's modification time.
        public let createdAt: Int64
    }

    /// Reads the keyring, creating it with one new key if it does not exist.
    public static func loadOrCreate(inDirectory directory: String) throws -> [Entry] {
        let path = directory + "/" + fileName
        _ = try SecretFile.loadOrCreate(path, describing: "signing key") { line(for: newEntry()) }
        return try read(path)
    }

    /// The entries of the file at `path`, signing key first; malformed or empty is an error.
    public static func read(_ path: String) throws -> [Entry] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SecretFileError(description: "cannot read the signing key file \(path)")
        }
        var status = stat()
        let modified = stat(path, &status) == 0 ? Int64(status.st_mtim.tv_sec) : UnixTime.now()
        let malformed = SecretFileError(description: "the signing key file \(path) is malformed: each line must be kid:base64key[:createdAt]")
        var entries: [Entry] = []
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 2 || fields.count == 3, let secret = Data(base64Encoded: String(fields[1])),
                  let key = try? SigningKey(id: String(fields[0]), secret: Array(secret)) else { throw malformed }
            let createdAt = fields.count == 3 ? Int64(fields[2]) : modified
            guard let createdAt else { throw malformed }
            entries.append(Entry(key: key, createdAt: createdAt))
        }
        guard !entries.isEmpty, Set(entries.map(\.key.id)).count == entries.count else { throw malformed }
        return entries
    }

    /// Puts a new key in front: it signs from now on, the others still verify.
    public static func rotate(inDirectory directory: String) throws -> Entry {
        try rewrite(inDirectory: directory) { entries in
            let entry = newEntry()
            entries.insert(entry, at: 0)
            return entry
        }
    }

    /// Removes a key that no longer signs: tokens it signed stop verifying.
    public static func retire(_ id: String, inDirectory directory: String) throws {
        try rewrite(inDirectory: directory) { entries in
            guard let index = entries.firstIndex(where: { $0.key.id.utf8.elementsEqual(id.utf8) }) else { throw KeyringChangeError.unknownKey(id) }
            guard index > 0 else { throw KeyringChangeError.signingKey(id) }
            entries.remove(at: index)
        }
    }

    /// What tells a changed file apart cheaply (device, inode, size, modification time), so
    /// a server can look every few seconds without reading it.
    public static func version(ofFileInDirectory directory: String) -> [Int64]? {
        var status = stat()
        guard stat(directory + "/" + fileName, &status) == 0 else { return nil }
        return [Int64(status.st_dev), Int64(status.st_ino), Int64(status.st_size), Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec)]
    }

    /// Read, change and replace the file while holding a lock on the data directory, so two
    /// commands at once cannot lose each other's change.
    private static func rewrite<T>(inDirectory directory: String, _ change: (inout [Entry]) throws -> T) throws -> T {
        let folder = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw SecretFileError(description: "cannot open the data directory \(directory): \(String(cString: strerror(errno)))") }
        defer { close(folder) }
        guard flock(folder, LOCK_EX) == 0 else { throw SecretFileError(description: "cannot lock the data directory \(directory)") }
        let path = directory + "/" + fileName
        var entries = try read(path)
        let result = try change(&entries)
        try DurableFile.write(Array(entries.map(line(for:)).joined(separator: "\n").utf8) + [UInt8(ascii: "\n")], to: path)
        return result
    }

    private static func newEntry() -> Entry {
        let id = SecureRandom.bytes(6).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
        // 64 random bytes: a valid key by construction.
        return Entry(key: try! SigningKey(id: id, secret: SecureRandom.bytes(64)), createdAt: UnixTime.now())
    }

    private static func line(for entry: Entry) -> String {
        "\(entry.key.id):\(Data(entry.key.secret).base64EncodedString()):\(entry.createdAt)"
    }
}

/// Why `keys retire` changed nothing.
public enum KeyringChangeError: Error, Equatable {
    case unknownKey(String)
    /// The key that signs new tokens cannot go: rotate first.
    case signingKey(String)
}
