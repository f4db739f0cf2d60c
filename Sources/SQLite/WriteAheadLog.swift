import Glibc

/// A database's write-ahead log (`<database>-wal`), opened by the writer so it can make
/// commits durable itself, off the thread that commits.
///
/// A connection with `synchronous=NORMAL` commits by writing its frames to the log, and
/// syncs the log only before a checkpoint (SQLite: "WAL mode is always consistent with
/// synchronous=NORMAL"; only the last commits may roll back after a power loss). What
/// `flush()` adds is the missing step: an `fdatasync` of the log, begun after a commit
/// returned, makes that commit and every one before it durable. `fdatasync` flushes the
/// file, not the descriptor, so a descriptor of our own serves for SQLite's.
///
/// `@unchecked Sendable`: made on one thread and handed to the one thread that flushes,
/// which alone touches its descriptor from then on.
public final class WriteAheadLog: @unchecked Sendable {
    /// Why the log could not be flushed: its file is unreadable, gone, or the disk failed.
    public struct FlushError: Error, CustomStringConvertible {
        public let operation: String
        public let code: Int32
        public var description: String { "\(operation) of the write-ahead log failed: \(String(cString: strerror(code)))" }
    }

    private let path: String
    private let folder: String
    /// The open log and the file it is (device and inode), to see it replaced; -1 until the
    /// first flush. Touched only by the one thread that flushes.
    private var descriptor: Int32 = -1
    private var identity: (device: UInt, inode: UInt) = (0, 0)

    /// `databasePath` is the database file's path; the log is beside it.
    public init(databasePath: String) {
        path = databasePath + "-wal"
        let slash = databasePath.lastIndex(of: "/")
        folder = slash.map { String(databasePath[...$0]) } ?? "."
    }

    /// The inode of the file the last flush synced (nil before the first), for tests.
    public var openedFile: UInt? { descriptor >= 0 ? identity.inode : nil }

    deinit {
        if descriptor >= 0 { close(descriptor) }
    }

    /// Makes every commit whose frames were written before this call durable. Call it from
    /// one thread at a time.
    public func flush() throws(FlushError) {
        try openIfReplaced()
        guard fdatasync(descriptor) == 0 else { throw FlushError(operation: "fdatasync", code: errno) }
    }

    /// Opens the log on the first flush, and again if SQLite made a new file since (it
    /// keeps one while a connection is open; this guards against a change of journal mode).
    /// A log newly opened has its folder synced too, so the file's name survives with it.
    private func openIfReplaced() throws(FlushError) {
        var current = stat()
        guard stat(path, &current) == 0 else { throw FlushError(operation: "stat", code: errno) }
        if descriptor >= 0, identity == (UInt(current.st_dev), UInt(current.st_ino)) { return }
        if descriptor >= 0 { close(descriptor) }
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0, fstat(descriptor, &current) == 0 else { throw FlushError(operation: "open", code: errno) }
        identity = (UInt(current.st_dev), UInt(current.st_ino))
        let folderDescriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderDescriptor >= 0 else { throw FlushError(operation: "open of its folder", code: errno) }
        defer { close(folderDescriptor) }
        guard fsync(folderDescriptor) == 0 else { throw FlushError(operation: "fsync of its folder", code: errno) }
    }
}
