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
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return nil
        }
        descriptor = fd
        length = Int(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Appends up to `count` bytes from `offset` to `output`; returns how many, 0 at the
    /// end of the file or on a read error (the response then ends short and the
    /// connection closes, so the client sees a truncated body, never a wrong one).
    func read(at offset: Int, count: Int, into output: inout [UInt8]) -> Int {
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: count))
        var result = 0
        for _ in 0..<8 {
            result = output.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + start, count, off_t(offset)) }
            if result >= 0 || errno != EINTR { break }
        }
        output.removeLast(count - max(result, 0))
        return max(result, 0)
    }
}
