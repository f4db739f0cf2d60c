import Glibc

/// Where a `JSONStreamReader` takes its bytes from, a piece at a time.
public protocol JSONByteSource {
    /// Fills the start of `buffer` with up to `buffer.count` bytes and returns how many;
    /// 0 only at the end of the input.
    mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int
}

/// Why a file could not be opened or read, with the system's words for it.
public struct FileReadError: Error, Sendable, Equatable, CustomStringConvertible {
    public let path: String
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "cannot read \(path): \(reason)" }
}

/// A file read from start to end with `read(2)`: only the reader's buffer is ever in
/// memory, however large the file.
public final class FileByteSource: JSONByteSource {
    public let path: String
    private let descriptor: Int32

    public init(path: String) throws(FileReadError) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
        var status = stat()
        // A directory opens, then fails at the first read with a less helpful EISDIR.
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            close(descriptor)
            throw FileReadError(path: path, reason: "it is a directory")
        }
    }

    public func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        // Retried only when a signal interrupted the call: bounded by the signals that arrive.
        while true {
            let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            guard errno == EINTR else { throw FileReadError(path: path, reason: String(cString: strerror(errno))) }
        }
    }

    deinit { close(descriptor) }
}

/// Bytes already in memory, handed out at most `pieceSize` at a time: tests use small
/// pieces to put every token across a boundary.
public struct ByteArraySource: JSONByteSource {
    private let bytes: [UInt8]
    private let pieceSize: Int
    private var position = 0

    public init(_ bytes: [UInt8], pieceSize: Int = 65_536) {
        self.bytes = bytes
        self.pieceSize = max(1, pieceSize)
    }

    public mutating func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws -> Int {
        let count = min(buffer.count, pieceSize, bytes.count - position)
        for offset in 0..<count { buffer[offset] = bytes[position + offset] }
        position += count
        return count
    }
}
