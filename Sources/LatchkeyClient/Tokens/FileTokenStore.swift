import Foundation
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Keeps the session in one file, for servers and command-line tools.
///
/// The file is mode 0600 (only its owner reads it, like an SSH key) in a directory made
/// 0700 when missing. It is replaced atomically: the new contents go to a temporary file
/// beside it, are flushed, and renamed over the old one, so a crash mid-write leaves the
/// old session or the new, never half of one.
public struct FileTokenStore: TokenStore {
    public let url: URL

    public init(url: URL) {
        self.url = url
    }

    /// `$XDG_CONFIG_HOME/<appName>/session.json` (`~/.config/…` when unset) on Linux, and
    /// `~/Library/Application Support/<appName>/session.json` on Apple platforms.
    public static func inUserConfiguration(appName: String) -> FileTokenStore {
        let home = URL(fileURLWithPath: NSHomeDirectory(), isDirectory: true)
        #if canImport(Darwin)
        let base = home.appendingPathComponent("Library/Application Support", isDirectory: true)
        #else
        let configured = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
        let base = configured.map { URL(fileURLWithPath: $0, isDirectory: true) } ?? home.appendingPathComponent(".config", isDirectory: true)
        #endif
        return FileTokenStore(url: base.appendingPathComponent(appName, isDirectory: true).appendingPathComponent("session.json"))
    }

    public func load() async throws -> StoredSession? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try SessionArchive.decode(try Data(contentsOf: url))
    }

    public func save(_ session: StoredSession) async throws {
        try FileTokenStore.replace(url, with: try SessionArchive.encode(session))
    }

    public func clear() async throws {
        guard unlink(url.path) == 0 || errno == ENOENT else { throw FileTokenStoreError(operation: "unlink", code: errno) }
    }

    /// Beside the session file, as `<name>.device` (0600 too); `clear` leaves it.
    var deviceTokenURL: URL { url.appendingPathExtension("device") }

    public func loadDeviceToken() async throws -> String? {
        guard FileManager.default.fileExists(atPath: deviceTokenURL.path) else { return nil }
        return String(decoding: try Data(contentsOf: deviceTokenURL), as: UTF8.self)
    }

    public func saveDeviceToken(_ token: String) async throws {
        try FileTokenStore.replace(deviceTokenURL, with: Data(token.utf8))
    }

    /// Writes `data` to a fresh 0600 file beside `url`, flushes it and renames it over `url`.
    static func replace(_ url: URL, with data: Data) throws {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        // O_EXCL: a file planted at that name is never written through; 0600 from the
        // start, so there is no moment when others may read it.
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileTokenStoreError(operation: "open", code: errno) }
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        do {
            try writeAll(data, to: fd)
            guard fsync(fd) == 0 else { throw FileTokenStoreError(operation: "fsync", code: errno) }
        } catch {
            close(fd)
            throw error
        }
        guard close(fd) == 0 else { throw FileTokenStoreError(operation: "close", code: errno) }
        guard rename(temporary, url.path) == 0 else { throw FileTokenStoreError(operation: "rename", code: errno) }
        renamed = true
    }

    private static func writeAll(_ data: Data, to fd: Int32) throws {
        try data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) in
            guard let start = buffer.baseAddress else { return }
            var offset = 0
            // Every pass writes at least a byte or throws; interruptions are retried a
            // bounded number of times.
            var interruptions = 0
            while offset < buffer.count {
                let written = write(fd, start + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0, errno == EINTR, interruptions < 100 {
                    interruptions += 1
                } else {
                    throw FileTokenStoreError(operation: "write", code: errno)
                }
            }
        }
    }
}

/// A file operation of `FileTokenStore` failed; `code` is the `errno`.
public struct FileTokenStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public let operation: String
    public let code: Int32

    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
