import Glibc

/// The database holds password hashes and session secrets: it is the owner's alone,
/// whatever umask the command that first opened it ran under (SQLite creates files with
/// 0644 and gives its -wal and -shm files the database file's mode).
enum DatabaseFile {
    /// Creates the file 0600 if missing, and takes group and other access away from one a
    /// looser earlier version created.
    static func restrictToOwner(_ path: String) throws {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw StoreError.failed("cannot open database file \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var status = stat()
        if fstat(fd, &status) == 0, status.st_mode & 0o077 != 0, fchmod(fd, status.st_mode & 0o700) != 0 {
            throw StoreError.failed("cannot restrict database file \(path): \(String(cString: strerror(errno)))")
        }
    }
}
