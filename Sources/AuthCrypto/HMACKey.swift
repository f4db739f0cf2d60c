/// An HMAC-SHA256 key kept as SHA-256's two states after its padded blocks (RFC 2104 §2:
/// `K ^ ipad` and `K ^ opad`, one 64-byte block each), computed once. A MAC continues a
/// copy of each (`SHA256State`): the message's blocks and one block more, with no
/// context to allocate, no algorithm to look up and no pad to hash again. A signing key
/// keeps one of these.
///
/// `Sendable` and safe from any number of threads at once: the states are never changed
/// after `init`, and each MAC works on copies on its own stack.
public struct HMACKey: Sendable {
    private static let blockLength = 64

    /// The states after `K ^ ipad` and `K ^ opad`: as secret as the key itself.
    private let inner: SHA256State
    private let outer: SHA256State

    init(_ secret: UnsafeBufferPointer<UInt8>) {
        var block = [UInt8](repeating: 0, count: Self.blockLength)
        // Keys longer than the block are hashed first, as RFC 2104 requires.
        let material = secret.count > Self.blockLength ? SHA256.digest(of: secret) : Array(secret)
        block.replaceSubrange(0..<material.count, with: material)
        inner = Self.state(after: block.map { $0 ^ 0x36 })
        outer = Self.state(after: block.map { $0 ^ 0x5C })
    }

    public init(_ secret: [UInt8]) {
        self = secret.withUnsafeBufferPointer { HMACKey($0) }
    }

    private static func state(after pad: [UInt8]) -> SHA256State {
        var state = SHA256State()
        pad.withUnsafeBufferPointer { state.absorb($0) }
        return state
    }

    public func authenticationCode(_ message: [UInt8]) -> [UInt8] {
        message.withUnsafeBufferPointer { authenticationCode($0) }
    }

    /// The MAC of a message read where it lies (one built in a caller's buffer).
    public func authenticationCode(_ message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: HMACSHA256.codeLength) { output, initialized in
            authenticate(message, into: output)
            initialized = HMACSHA256.codeLength
        }
    }

    /// Writes `H(K ^ opad || H(K ^ ipad || message))` into `output` (at least 32 bytes).
    func authenticate(_ message: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) {
        precondition(output.count >= HMACSHA256.codeLength, "HMACKey: output buffer too small")
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: HMACSHA256.codeLength) { innerCode in
            var innerState = inner
            innerState.absorb(message)
            innerState.finish(into: innerCode.baseAddress!)
            var outerState = outer
            outerState.absorb(UnsafeBufferPointer(innerCode))
            outerState.finish(into: output.baseAddress!)
        }
    }
}
