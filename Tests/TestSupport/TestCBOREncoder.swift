import CBOR

/// The preferred (shortest) encoding of a value, so tests can write COSE keys as values.
/// The server never encodes CBOR; only tests need this.
public enum TestCBOREncoder {
    public static func encode(_ value: CBOR) -> [UInt8] {
        switch value {
        case .integer(let integer) where integer >= 0: head(0, UInt64(integer))
        case .integer(let integer): head(1, UInt64(-1 - integer))
        case .bytes(let bytes): head(2, UInt64(bytes.count)) + bytes
        case .text(let text): head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let elements): head(4, UInt64(elements.count)) + elements.flatMap(encode)
        case .map(let map):
            head(5, UInt64(map.count)) + map.entries.flatMap { entry in
                switch entry.key {
                case .integer(let label): encode(.integer(label)) + encode(entry.value)
                case .text(let name): encode(.text(name)) + encode(entry.value)
                }
            }
        case .bool(let bool): [bool ? 0xF5 : 0xF4]
        case .null: [0xF6]
        }
    }

    private static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xFF: return [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: return [type | 25] + bigEndian(argument, width: 2)
        case 0x1_0000...0xFFFF_FFFF: return [type | 26] + bigEndian(argument, width: 4)
        default: return [type | 27] + bigEndian(argument, width: 8)
        }
    }

    private static func bigEndian(_ value: UInt64, width: Int) -> [UInt8] {
        (0..<width).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}

/// A COSE key map, labels in the given order.
public func coseKey(_ pairs: [(Int64, CBOR)]) -> CBORMap {
    CBORMap(pairs.map { CBORMap.Entry(key: .integer($0.0), value: $0.1) })
}
