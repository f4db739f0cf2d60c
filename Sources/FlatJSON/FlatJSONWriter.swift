/// Writes a flat JSON object member by member, in the order the caller gives, straight
/// into bytes. `FlatJSONObject.serialized` writes through it after sorting its keys; a
/// caller that knows its members in advance (an access token's claims, on every login and
/// refresh) writes them in order itself, without a dictionary to hash them into and sort.
public struct FlatJSONWriter {
    private var bytes: [UInt8]

    /// `capacity`: the bytes the whole object is expected to take, reserved once.
    public init(capacity: Int = 256) {
        bytes = [UInt8(ascii: "{")]
        bytes.reserveCapacity(capacity)
    }

    /// Appends one member; a `.composite` value is left out (there is nothing to write for it).
    public mutating func write(_ key: String, _ value: FlatJSONObject.Value) {
        if case .composite = value { return }
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        FlatJSONObject.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        switch value {
        case .string(let string): FlatJSONObject.appendQuoted(string, to: &bytes)
        case .integer(let integer): bytes.append(contentsOf: String(integer).utf8)
        case .number(let number): bytes.append(contentsOf: (number.isFinite ? String(number) : "null").utf8)
        case .bool(let bool): bytes.append(contentsOf: (bool ? "true" : "false").utf8)
        case .strings(let strings):
            bytes.append(UInt8(ascii: "["))
            for (index, string) in strings.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                FlatJSONObject.appendQuoted(string, to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .null, .composite: bytes.append(contentsOf: "null".utf8)
        }
    }

    /// The object, closed.
    public consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}
