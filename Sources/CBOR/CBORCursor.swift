/// A read position over borrowed bytes. Every read checks what is left first, so no read
/// goes past the end of the input, and a declared length is compared with what is left
/// before anything is allocated for it.
struct CBORCursor {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var offset = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    var remaining: Int { bytes.count - offset }

    mutating func byte() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next byte without moving past it.
    func peek() throws(CBORError) -> UInt8 {
        guard offset < bytes.count else { throw .truncated }
        return bytes[offset]
    }

    /// The argument of a head whose additional information is `info` (0–27; the caller
    /// refused 28–31): the value itself below 24, else 1, 2, 4 or 8 bytes, big-endian.
    mutating func argument(_ info: UInt8) throws(CBORError) -> UInt64 {
        let width: Int
        switch info {
        case 0..<24: return UInt64(info)
        case 24: width = 1
        case 25: width = 2
        case 26: width = 4
        default: width = 8
        }
        guard remaining >= width else { throw .truncated }
        var value: UInt64 = 0
        for index in offset..<(offset + width) {
            value = value << 8 | UInt64(bytes[index])
        }
        offset += width
        return value
    }

    /// The next `length` bytes, or `lengthPastEnd` when fewer are left: the check comes
    /// before the caller copies (or allocates) anything.
    mutating func take(_ length: UInt64) throws(CBORError) -> UnsafeBufferPointer<UInt8> {
        guard length <= UInt64(remaining) else { throw .lengthPastEnd }
        let count = Int(length)
        defer { offset += count }
        return UnsafeBufferPointer(rebasing: bytes[offset..<(offset + count)])
    }
}
