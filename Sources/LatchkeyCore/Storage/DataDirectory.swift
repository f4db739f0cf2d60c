import Glibc

public struct DataDirectoryError: Error, CustomStringConvertible {
    public let description: String
}

/// The directory that holds the database, the generated key and (later) pictures and mail.
public enum DataDirectory {
    /// Creates the directory (mode 0700, parents as needed) and proves it is writable, so a
    /// bad path fails at start-up with one clear line instead of at the first write.
    public static func prepare(_ path: String) throws {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0, errno != EEXIST {
                throw DataDirectoryError(description: "cannot create data directory \(path): \(String(cString: strerror(errno)))")
            }
        }
        var status = stat()
        guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw DataDirectoryError(description: "cannot create data directory \(path): \(String(cString: strerror(ENOTDIR)))")
        }
        let probe = path + "/.write-test-\(getpid())"
        let fd = open(probe, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw DataDirectoryError(description: "data directory \(path) is not writable: \(String(cString: strerror(errno)))")
        }
        close(fd)
        unlink(probe)
    }
}
