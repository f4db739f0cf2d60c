import Glibc

/// Random access to a picture's bytes wherever they are: an array, or an upload's file read
/// through a small window (`FileWindow`), so a 5 MiB picture is never held whole.
protocol PictureBytes {
    var count: Int { get }
    subscript(_ index: Int) -> UInt8 { get }
    /// The index of the first `byte` at or after `start`, or nil.
    func firstIndex(of byte: UInt8, from start: Int) -> Int?
}

extension PictureBytes {
    func bigEndian16(at index: Int) -> Int { Int(self[index]) << 8 | Int(self[index + 1]) }

    func bigEndian32(at index: Int) -> Int {
        Int(self[index]) << 24 | Int(self[index + 1]) << 16 | Int(self[index + 2]) << 8 | Int(self[index + 3])
    }

    func littleEndian32(at index: Int) -> Int {
        Int(self[index]) | Int(self[index + 1]) << 8 | Int(self[index + 2]) << 16 | Int(self[index + 3]) << 24
    }

    /// Whether the bytes at `index` are `ascii`, within bounds.
    func has(_ ascii: StaticString, at index: Int) -> Bool {
        let length = ascii.utf8CodeUnitCount
        guard index >= 0, index + length <= count else { return false }
        return (0..<length).allSatisfy { self[index + $0] == ascii.utf8Start[$0] }
    }

    func bytes(_ range: Range<Int>) -> [UInt8] { range.map { self[$0] } }
}

extension [UInt8]: PictureBytes {
    func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        self[start...].firstIndex(of: byte)
    }
}

/// A file's bytes through a 64 KiB window that moves as they are read: the strippers read
/// forward, so each byte is read from the file about once.
final class FileWindow: PictureBytes {
    private let fd: Int32
    let count: Int
    private var window: [UInt8] = []
    private var windowStart = 0
    private static let size = 64 * 1024

    init(fd: Int32, count: Int) {
        self.fd = fd
        self.count = count
    }

    subscript(_ index: Int) -> UInt8 {
        precondition(index >= 0 && index < count, "read past the end of the file")
        if index < windowStart || index >= windowStart + window.count { load(at: index) }
        return window[index - windowStart]
    }

    func firstIndex(of byte: UInt8, from start: Int) -> Int? {
        var position = start
        while position < count {
            _ = self[position]
            let offset = position - windowStart
            let found = window.withUnsafeBufferPointer { buffer in
                memchr(buffer.baseAddress! + offset, Int32(byte), buffer.count - offset)
            }
            if let found {
                return window.withUnsafeBufferPointer { windowStart + (UnsafeRawPointer($0.baseAddress!).distance(to: UnsafeRawPointer(found))) }
            }
            position = windowStart + window.count
        }
        return nil
    }

    /// Reads the window that starts at `index`. A file that shrank under us (it cannot:
    /// the upload is ours alone) would read as zeros rather than loop.
    private func load(at index: Int) {
        let length = min(Self.size, count - index)
        window = [UInt8](repeating: 0, count: length)
        windowStart = index
        var filled = 0
        for _ in 0..<1024 where filled < length {
            let result = window.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + filled, length - filled, off_t(index + filled)) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { break }
            filled += result
        }
    }
}
