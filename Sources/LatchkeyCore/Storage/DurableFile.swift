import Glibc

/// A file written so that a reader or a crash never sees half of it: the bytes go to a
/// temporary name beside it, are flushed to disk, renamed into place, and the folder is
/// flushed so the rename survives a crash. On failure the temporary file is gone and
/// `path` is as it was. A retry after a crash overwrites the leftover temporary file.
public enum DurableFile {
    public static func write(_ bytes: [UInt8], to path: String) throws {
        try write(to: path) { fd in try writeAll(bytes[...], to: fd) }
    }

    /// Writes what `contents` puts into the descriptor it is given.
    static func write(to path: String, contents: (Int32) throws -> Void) throws {
        let temporary = path + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw DataDirectoryError(description: "cannot create \(temporary): \(String(cString: strerror(errno)))") }
        var failure: (any Error)?
        do {
            try contents(fd)
            guard fsync(fd) == 0 else { throw DataDirectoryError(description: "cannot flush \(temporary): \(String(cString: strerror(errno)))") }
        } catch {
            failure = error
        }
        close(fd)
        if failure == nil, rename(temporary, path) != 0 {
            failure = DataDirectoryError(description: "cannot rename \(temporary): \(String(cString: strerror(errno)))")
        }
        if let failure {
            unlink(temporary)
            throw failure
        }
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)])
        let folderFD = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            fsync(folderFD)
            close(folderFD)
        }
    }

    /// Writes all of `bytes`, however many calls it takes (each writes at least one byte
    /// or fails).
    static func writeAll(_ bytes: ArraySlice<UInt8>, to fd: Int32) throws {
        try bytes.withUnsafeBytes { try writeAll($0, to: fd) }
    }

    static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) throws {
        var written = 0
        while written < bytes.count {
            let result = Glibc.write(fd, bytes.baseAddress! + written, bytes.count - written)
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw DataDirectoryError(description: "cannot write: \(String(cString: strerror(result == 0 ? EIO : errno)))") }
            written += result
        }
    }
}
