import Glibc

/// File steps of the picture store, each one durable before the next begins.
enum PictureFile {
    /// Writes `bytes` to `path` through a temporary name in the same folder: written,
    /// flushed to disk, renamed into place, and the folder flushed so the rename survives a
    /// crash. On any failure the temporary file is gone and `path` does not exist.
    static func writeDurably(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw StoreError.failed("cannot create \(temporary): \(String(cString: strerror(errno)))") }
        var written = 0
        var attempts = 0
        while written < bytes.count, attempts < 1_000_000 {
            attempts += 1
            let result = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { break }
            written += result
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw StoreError.failed("cannot write \(path)")
        }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    /// Deletes the regular files of `folder` but `kept` (leftover temporary files too).
    static func removeAll(in folder: String, except kept: String?) {
        guard let directory = opendir(folder) else { return }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory), names.count < 10_000 {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != "..", name != kept { names.append(name) }
        }
        for name in names { unlink(folder + "/" + name) }
    }
}
