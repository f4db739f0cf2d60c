import AuthCrypto

/// A MAC over a message of several parts, joined in a buffer on the stack: a refresh
/// makes three MACs over messages of a prefix, a session id, a generation and a seed, and
/// joining them as strings or arrays cost allocations each time.
enum HMACMessage {
    struct Writer {
        fileprivate let buffer: UnsafeMutableBufferPointer<UInt8>
        fileprivate var count = 0

        mutating func append(_ bytes: some Collection<UInt8>) {
            // The caller's capacity is wrong: a programming error, not an input's fault.
            precondition(bytes.count <= buffer.count - count, "HMACMessage: capacity too small")
            count = UnsafeMutableBufferPointer(rebasing: buffer[count...]).initialize(fromContentsOf: bytes) + count
        }
    }

    /// The MAC under `key` of what `write` appends, which is at most `capacity` bytes.
    static func authenticationCode(key: HMACKey, capacity: Int, _ write: (inout Writer) -> Void) -> [UInt8] {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
            var writer = Writer(buffer: buffer)
            write(&writer)
            return key.authenticationCode(UnsafeBufferPointer(rebasing: buffer[..<writer.count]))
        }
    }
}
