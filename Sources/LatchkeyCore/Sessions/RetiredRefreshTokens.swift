/// The refresh tokens a session's rotations retired, newest first: a fixed-width list
/// (the first 16 bytes of the token's SHA-256, then the retirement time as 4 big-endian
/// bytes of unix seconds) stored in the session row as it is, and searched in place: it is
/// read and rewritten on the writer thread, the one serial step of every refresh.
struct RetiredRefreshTokens: Equatable {
    /// Reuse of any of the last 16 tokens is caught: a thief would have to rotate the
    /// stolen chain 16 times before its owner next refreshes to slip past.
    static let capacity = 16
    /// 128 bits tell tokens apart as surely as 256 here: nobody can aim a token at a
    /// prefix without the token's 256 random bits.
    static let hashPrefix = 16
    private static let width = hashPrefix + 4

    private(set) var blob: [UInt8]

    init(blob: [UInt8] = []) {
        self.blob = Array(blob.prefix(min(blob.count - blob.count % Self.width, Self.capacity * Self.width)))
    }

    var count: Int { blob.count / Self.width }

    /// When the token hashing to `hash` was retired, if it is in the list.
    func retiredAt(_ hash: [UInt8]) -> Int64? {
        var offset = 0
        while offset < blob.count {
            if zip(blob[offset..<(offset + Self.hashPrefix)], hash).allSatisfy({ $0 == $1 }) {
                return blob[(offset + Self.hashPrefix)..<(offset + Self.width)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            }
            offset += Self.width
        }
        return nil
    }

    /// A copy with `hash` retired at `time` in front, the oldest dropped past capacity.
    func retiring(_ hash: [UInt8], at time: Int64) -> RetiredRefreshTokens {
        var bytes = [UInt8]()
        bytes.reserveCapacity(Self.capacity * Self.width)
        bytes.append(contentsOf: hash.prefix(Self.hashPrefix))
        for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: time >> shift)) }
        bytes.append(contentsOf: blob.prefix((Self.capacity - 1) * Self.width))
        return RetiredRefreshTokens(blob: bytes)
    }
}
