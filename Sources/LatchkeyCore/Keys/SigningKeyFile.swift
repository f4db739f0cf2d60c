import AuthCrypto
import FoundationEssentials
import Glibc

/// The signing keyring kept in the data directory (mode 0600): one line per key (see
/// `SigningKeyFile.Entry` for their forms). The first active key of the configured
/// algorithm signs and every active key verifies. Generated with one key on first start,
/// and given a P-256 key on the first start with `accessTokenAlgorithm` ES256;
/// `latchkey keys rotate|retire` rewrite it whole (temporary file, fsync, rename) and a
/// running server reads it again when it changes. With `signingKeys` configured, only its
/// P-256 keys are used from here.
public enum SigningKeyFile {
    public static let fileName = "signing-key"

    /// Reads the keyring, creating it with one new key of `algorithm` if it does not exist,
    /// and adding one in front if it holds no active key of `algorithm` (a switch to ES256).
    public static func loadOrCreate(inDirectory directory: String, algorithm: AccessTokenAlgorithm) throws -> [Entry] {
        let path = directory + "/" + fileName
        _ = try SecretFile.loadOrCreate(path, describing: "signing key") { Entry.generate(algorithm).line }
        let entries = try read(path)
        guard signingEntry(of: entries, algorithm: algorithm) == nil else { return entries }
        return try rewrite(inDirectory: directory) { entries in
            if signingEntry(of: entries, algorithm: algorithm) == nil { entries.insert(Entry.generate(algorithm), at: 0) }
            return entries
        }
    }

    /// The entries of the file at `path`, in order; malformed or empty is an error.
    public static func read(_ path: String) throws -> [Entry] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SecretFileError(description: "cannot read the signing key file \(path)")
        }
        var status = stat()
        let modified = stat(path, &status) == 0 ? Int64(status.st_mtim.tv_sec) : UnixTime.now()
        let malformed = SecretFileError(
            description: "the signing key file \(path) is malformed: each line must be kid:base64key[:createdAt], kid:ES256:base64key:createdAt or kid:ES256-retired:base64point:createdAt:retiredAt"
        )
        var entries: [Entry] = []
        for line in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) where !line.allSatisfy(\.isWhitespace) {
            guard let entry = Entry(line: line, modified: modified) else { throw malformed }
            entries.append(entry)
        }
        guard entries.contains(where: { !$0.isRetired }), Set(entries.map(\.id)).count == entries.count else { throw malformed }
        return entries
    }

    /// The entry that signs new tokens of `algorithm`: the first active one of it.
    public static func signingEntry(of entries: [Entry], algorithm: AccessTokenAlgorithm) -> Entry? {
        entries.first { !$0.isRetired && $0.algorithm == algorithm }
    }

    /// Puts a new key of `algorithm` in front: it signs from now on, the others still verify.
    public static func rotate(inDirectory directory: String, algorithm: AccessTokenAlgorithm) throws -> Entry {
        try rewrite(inDirectory: directory) { entries in
            let entry = Entry.generate(algorithm)
            entries.insert(entry, at: 0)
            return entry
        }
    }

    /// Takes a key that no longer signs out of the keyring: tokens it signed stop verifying
    /// here at once. An HMAC key's line goes; a P-256 key keeps only its public half, which
    /// `/.well-known/jwks.json` lists until every token it signed has expired
    /// (`publishedFor`, the access token lifetime, after now), and later rewrites drop.
    public static func retire(_ id: String, inDirectory directory: String, algorithm: AccessTokenAlgorithm, publishedFor lifetime: Int64) throws {
        _ = try rewrite(inDirectory: directory) { entries in
            let now = UnixTime.now()
            entries.removeAll { $0.publicationEnded(now: now, lifetime: lifetime) }
            guard let index = entries.firstIndex(where: { !$0.isRetired && $0.id.utf8.elementsEqual(id.utf8) }) else {
                throw KeyringChangeError.unknownKey(id)
            }
            guard signingEntry(of: entries, algorithm: algorithm)?.id != entries[index].id else { throw KeyringChangeError.signingKey(id) }
            guard let retired = entries[index].retired(at: now) else { return entries.remove(at: index) }
            entries[index] = retired
            return retired
        }
    }

    /// The keyring `serve` uses: the file's active keys (its HMAC keys replaced by `configuredHMAC`
    /// when `signingKeys` is set), signing with `algorithm`.
    public static func keyring(_ entries: [Entry], algorithm: AccessTokenAlgorithm, configuredHMAC: [SigningKey]? = nil) throws -> Keyring {
        var hmac: [SigningKey] = []
        var p256: [ES256SigningKey] = []
        for entry in entries {
            switch entry.material {
            case .hs256(let key): hmac.append(key)
            case .es256(let key): p256.append(key)
            case .retiredES256: break
            }
        }
        return try Keyring(keys: configuredHMAC ?? hmac, es256Keys: p256, signingWith: algorithm)
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
        try DurableFile.write(Array(entries.map(\.line).joined(separator: "\n").utf8) + [UInt8(ascii: "\n")], to: path)
        return result
    }
}

/// Why `keys retire` changed nothing.
public enum KeyringChangeError: Error, Equatable {
    case unknownKey(String)
    /// The key that signs new tokens cannot go: rotate first.
    case signingKey(String)
}

extension SigningKeyFile {
    /// The retired P-256 keys of `entries`, for the JWKS.
    public static func retiredPublicKeys(_ entries: [Entry]) -> [RetiredPublicKey] {
        entries.compactMap { entry in
            guard case .retiredES256(let x, let y, let retiredAt) = entry.material else { return nil }
            return RetiredPublicKey(id: entry.id, x: x, y: y, retiredAt: retiredAt)
        }
    }
}
