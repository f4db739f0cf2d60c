import Glibc

/// A file written so that a reader or a crash never sees half of it: the bytes go to a
/// temporary name beside it, are flushed to disk, renamed into place, and the folder is
/// flushed so the rename survives a crash. On failure the temporary file is gone and
/// `path` is as it was. A retry after a crash overwrites the leftover temporary file.
public enum DurableFile {
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DataDirectoryError(description: "cannot create \(temporary): \(String(cString: strerror(errno)))") }
        var written = 0
        for _ in 0..<1_000_000 where written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { break }
            written += result
        }
        let synced = fsync(fd) == 0
        close(fd)
        guard written == bytes.count, synced, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw DataDirectoryError(description: "cannot write \(path)")
        }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        let folderFD = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }
}
