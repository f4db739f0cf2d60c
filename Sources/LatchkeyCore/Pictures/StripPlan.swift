import Glibc

/// What a stripped picture is made of: ranges of the original kept in order, and a few
/// bytes made anew (a WebP header with its new size and flags). Built by reading the
/// picture's structure, then written out in pieces, so nothing holds the whole picture.
struct StripPlan: Equatable {
    enum Piece: Equatable {
        case original(Range<Int>)
        case made([UInt8])
    }

    private(set) var pieces: [Piece] = []
    private(set) var count = 0

    /// Keeps `range` of the original; a range that follows the previous one extends it.
    mutating func keep(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        count += range.count
        if case .original(let last)? = pieces.last, last.upperBound == range.lowerBound {
            pieces[pieces.count - 1] = .original(last.lowerBound..<range.upperBound)
        } else {
            pieces.append(.original(range))
        }
    }

    mutating func add(_ bytes: [UInt8]) {
        count += bytes.count
        pieces.append(.made(bytes))
    }

    mutating func append(_ other: StripPlan) {
        for piece in other.pieces {
            switch piece {
            case .original(let range): keep(range)
            case .made(let bytes): add(bytes)
            }
        }
    }

    /// The stripped picture, from an original in memory.
    func apply(to original: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(count)
        for piece in pieces {
            switch piece {
            case .original(let range): output += original[range]
            case .made(let bytes): output += bytes
            }
        }
        return output
    }

    /// Writes the stripped picture to `destination`, reading the original from `source`
    /// 64 KiB at a time.
    func write(from source: Int32, to destination: Int32) throws {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        for piece in pieces {
            switch piece {
            case .made(let bytes):
                try DurableFile.writeAll(bytes[...], to: destination)
            case .original(let range):
                var offset = range.lowerBound
                while offset < range.upperBound {
                    let want = min(buffer.count, range.upperBound - offset)
                    let read = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, want, off_t(offset)) }
                    if read < 0, errno == EINTR { continue }
                    guard read > 0 else { throw DataDirectoryError(description: "cannot read an upload: \(String(cString: strerror(read == 0 ? EIO : errno)))") }
                    try DurableFile.writeAll(buffer[0..<read], to: destination)
                    offset += read
                }
            }
        }
    }
}
