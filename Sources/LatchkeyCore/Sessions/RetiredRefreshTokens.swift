/// The refresh tokens a session's rotations retired, newest first: a fixed-width list
/// (SHA-256 of the token, then the retirement time as 8 big-endian bytes) stored in the
/// session row. Bounded, so a session that refreshes for months stays one small row.
struct RetiredRefreshTokens: Equatable {
    struct Entry: Equatable {
        let hash: [UInt8]
        let retiredAt: Int64
    }

    /// Reuse of any of the last 16 tokens is caught: a thief would have to rotate the
    /// stolen chain 16 times before its owner next refreshes to slip past.
    static let capacity = 16
    private static let width = 32 + 8

    private(set) var entries: [Entry]

    init(entries: [Entry] = []) {
        self.entries = entries
    }

    init(blob: [UInt8]) {
        entries = stride(from: 0, to: blob.count - blob.count % Self.width, by: Self.width).map { offset in
            let time = blob[(offset + 32)..<(offset + 40)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            return Entry(hash: Array(blob[offset..<(offset + 32)]), retiredAt: time)
        }
    }

    var blob: [UInt8] {
        entries.flatMap { entry in
            entry.hash + (0..<8).reversed().map { UInt8(truncatingIfNeeded: entry.retiredAt >> ($0 * 8)) }
        }
    }

    func entry(for hash: [UInt8]) -> Entry? {
        entries.first { $0.hash == hash }
    }

    /// A copy with `hash` retired at `time` in front, the oldest dropped past capacity.
    func retiring(_ hash: [UInt8], at time: Int64) -> RetiredRefreshTokens {
        RetiredRefreshTokens(entries: Array(([Entry(hash: hash, retiredAt: time)] + entries).prefix(Self.capacity)))
    }
}
