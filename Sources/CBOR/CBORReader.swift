/// A bounded reader of RFC 8949 for what WebAuthn uses, a pure function over borrowed bytes:
/// no I/O, nothing kept between reads. Every loop runs at most
/// `CBORLimits.maxItemsPerContainer` times, and recursion goes at most `maxDepth` deep.
///
/// It accepts any well-formed encoding of the supported items (not only the preferred,
/// shortest one): browsers and authenticators differ, and WebAuthn checks signatures over
/// the bytes as they came, never over a re-encoding.
public struct CBORReader: Sendable {
    public let limits: CBORLimits

    public init(limits: CBORLimits = CBORLimits()) {
        self.limits = limits
    }

    /// One item from the start of `input` and how many bytes it used; what follows is not
    /// looked at. WebAuthn needs this for the credential public key inside authenticator
    /// data, which is followed by extensions, and whose exact bytes are stored.
    public func readPrefix(_ input: UnsafeBufferPointer<UInt8>) throws(CBORError) -> (value: CBOR, consumed: Int) {
        guard input.count <= limits.maxInputBytes else { throw .inputTooLong }
        var cursor = CBORCursor(input)
        let value = try item(&cursor, depth: 0)
        return (value, cursor.offset)
    }

    /// `input` as exactly one item; bytes after it are `trailingBytes`.
    public func read(_ input: UnsafeBufferPointer<UInt8>) throws(CBORError) -> CBOR {
        let (value, consumed) = try readPrefix(input)
        guard consumed == input.count else { throw .trailingBytes }
        return value
    }

    public func readPrefix(_ input: some Collection<UInt8>) throws(CBORError) -> (value: CBOR, consumed: Int) {
        try withBuffer(input) { (buffer) throws(CBORError) in try readPrefix(buffer) }
    }

    public func read(_ input: some Collection<UInt8>) throws(CBORError) -> CBOR {
        try withBuffer(input) { (buffer) throws(CBORError) in try read(buffer) }
    }

    private func withBuffer<R>(
        _ input: some Collection<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws(CBORError) -> R
    ) throws(CBORError) -> R {
        let result = input.withContiguousStorageIfAvailable { buffer in
            Result { () throws(CBORError) in try body(buffer) }
        } ?? Array(input).withUnsafeBufferPointer { buffer in
            Result { () throws(CBORError) in try body(buffer) }
        }
        return try result.get()
    }

    // MARK: - Items

    /// The item at the cursor; `depth` is the number of containers around it.
    private func item(_ cursor: inout CBORCursor, depth: Int) throws(CBORError) -> CBOR {
        let initial = try cursor.byte()
        let major = initial >> 5
        let info = initial & 0x1F
        switch info {
        case 28...30:
            throw .malformedHead
        case 31:
            switch major {
            case 2, 3, 4, 5: throw .indefiniteLength
            case 7: throw .unexpectedBreak
            default: throw .malformedHead
            }
        default:
            break
        }
        switch major {
        case 6: throw .tag
        case 7: return try simple(info)
        default: break
        }
        let argument = try cursor.argument(info)
        switch major {
        case 0:
            guard argument <= UInt64(Int64.max) else { throw .integerOutOfRange }
            return .integer(Int64(argument))
        case 1:
            // -1 - argument: the smallest is -1 - Int64.max == Int64.min.
            guard argument <= UInt64(Int64.max) else { throw .integerOutOfRange }
            return .integer(-1 - Int64(argument))
        case 2:
            return .bytes(Array(try cursor.take(argument)))
        case 3:
            guard let text = String(validating: try cursor.take(argument), as: UTF8.self) else { throw .invalidUTF8 }
            return .text(text)
        case 4:
            return .array(try array(&cursor, count: argument, depth: depth + 1))
        default:
            return .map(try map(&cursor, count: argument, depth: depth + 1))
        }
    }

    /// Major type 7 without its argument: only false, true and null are values here.
    private func simple(_ info: UInt8) throws(CBORError) -> CBOR {
        switch info {
        case 20: .bool(false)
        case 21: .bool(true)
        case 22: .null
        case 23: throw .undefined
        case 25, 26, 27: throw .float
        default: throw .unsupportedSimpleValue
        }
    }

    /// Checks a container's depth and declared size before anything is allocated: each
    /// entry takes at least `bytesPerEntry` bytes, so a count the rest of the input cannot
    /// hold is refused at once.
    private func checkContainer(_ cursor: CBORCursor, count: UInt64, depth: Int, bytesPerEntry: Int) throws(CBORError) -> Int {
        guard depth <= limits.maxDepth else { throw .tooDeep }
        guard count <= UInt64(limits.maxItemsPerContainer) else { throw .tooManyItems }
        guard count <= UInt64(cursor.remaining / bytesPerEntry) else { throw .lengthPastEnd }
        return Int(count)
    }

    private func array(_ cursor: inout CBORCursor, count declared: UInt64, depth: Int) throws(CBORError) -> [CBOR] {
        let count = try checkContainer(cursor, count: declared, depth: depth, bytesPerEntry: 1)
        var elements: [CBOR] = []
        elements.reserveCapacity(count)
        for _ in 0..<count {
            elements.append(try item(&cursor, depth: depth))
        }
        return elements
    }

    private func map(_ cursor: inout CBORCursor, count declared: UInt64, depth: Int) throws(CBORError) -> CBORMap {
        let count = try checkContainer(cursor, count: declared, depth: depth, bytesPerEntry: 2)
        var entries: [CBORMap.Entry] = []
        entries.reserveCapacity(count)
        var seen = Set<CBORMapKey>(minimumCapacity: count)
        for _ in 0..<count {
            let key = try mapKey(&cursor, depth: depth)
            guard seen.insert(key).inserted else { throw .duplicateMapKey }
            entries.append(CBORMap.Entry(key: key, value: try item(&cursor, depth: depth)))
        }
        return CBORMap(entries)
    }

    /// A key's kind is decided from its first byte, so a key that is itself a container
    /// is refused before it is read.
    private func mapKey(_ cursor: inout CBORCursor, depth: Int) throws(CBORError) -> CBORMapKey {
        switch try cursor.peek() >> 5 {
        case 0, 1, 3:
            switch try item(&cursor, depth: depth) {
            case .integer(let value): return .integer(value)
            case .text(let value): return .text(value)
            // Major types 0, 1 and 3 read only as integers and text, or throw.
            case .bytes, .array, .map, .bool, .null: fatalError("a key of major type 0, 1 or 3 read as another kind")
            }
        default:
            throw .unsupportedMapKey
        }
    }
}
