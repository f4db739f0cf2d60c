/// The ids one event loop gives requests that bring none: `PREFIX-LOOP-n`, a random prefix
/// per loop and start, the loop's index, and a counter in lowercase hex. Written byte by
/// byte into the new string: generic integer formatting and a concatenation cost about 1%
/// of a `GET /v1/users/me`, which makes one id per request.
struct RequestIDs {
    private let prefix: [UInt8]
    private var counter: UInt64 = 0

    init(loopIndex: Int) {
        prefix = Array("\(String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 16))-\(loopIndex)-".utf8)
    }

    mutating func next() -> String {
        counter += 1
        let digits = max(1, (64 - counter.leadingZeroBitCount + 3) / 4)
        return String(unsafeUninitializedCapacity: prefix.count + digits) { buffer in
            _ = buffer.initialize(fromContentsOf: prefix)
            var value = counter
            for position in (prefix.count..<(prefix.count + digits)).reversed() {
                buffer[position] = Self.hexDigits[Int(value & 0xF)]
                value >>= 4
            }
            return prefix.count + digits
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
