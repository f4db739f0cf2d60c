import Glibc

/// A response body read from a file in pieces as the client takes them, with a
/// `Content-Length`: a large file never sits whole in memory, and a client that does not
/// read holds at most a few pieces. The descriptor closes with the last reference.
///
/// Pieces are read on the event loop with `pread`: quick for files in the page cache
/// (pictures that are asked for often); a store on slow disks would want a reader pool.
public final class FileBody: Sendable {
    let descriptor: Int32
    public let length: Int
    /// The bytes read at once, and how far ahead of the socket the reader goes.
    static let pieceSize = 64 * 1024
    static let readAhead = 256 * 1024

    /// Opens `path` for reading; nil unless it is a regular file (a symbolic link is not
    /// followed).
    public init?(path: String) {
        guard let fd = try? syscallThatCannotBlock("open", { open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }) else { return nil }
        var status = stat()
        guard (try? syscallThatCannotBlock("fstat") { fstat(fd, &status) }) != nil, status.st_mode & S_IFMT == S_IFREG else {
            closeDescriptor(fd)
            return nil
        }
        descriptor = fd
        length = Int(status.st_size)
    }

    deinit {
        closeDescriptor(descriptor)
    }

    /// Appends up to `count` bytes from `offset` to `output`; returns how many, 0 at the
    /// end of the file or on a read error (the response then ends short and the
    /// connection closes, so the client sees a truncated body, never a wrong one).
    func read(at offset: Int, count: Int, into output: inout [UInt8]) -> Int {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: count))
        let result = output.withUnsafeMutableBytes { bytes in
            (try? syscallThatCannotBlock("pread") { pread(descriptor, bytes.baseAddress! + start, count, off_t(offset)) }) ?? 0
        }
        output.removeLast(count - result)
        return result
    }
}
