import CBOR
import Testing
import TestSupport

/// One row of the CBOR table: encoded bytes and what the reader must make of them.
struct CBORCase: Sendable, CustomTestStringConvertible {
    enum Expected: Sendable, Equatable {
        case value(CBOR)
        case failure(CBORError)
    }

    let name: String
    let input: [UInt8]
    let limits: CBORLimits
    let expected: Expected

    var testDescription: String { name }

    static func accepts(_ name: String, _ hex: String, limits: CBORLimits = CBORLimits(), _ value: CBOR) -> CBORCase {
        CBORCase(name: name, input: [UInt8](hex: hex), limits: limits, expected: .value(value))
    }

    static func refuses(_ name: String, _ hex: String, limits: CBORLimits = CBORLimits(), _ error: CBORError) -> CBORCase {
        CBORCase(name: name, input: [UInt8](hex: hex), limits: limits, expected: .failure(error))
    }

    static func refuses(_ name: String, bytes: [UInt8], limits: CBORLimits = CBORLimits(), _ error: CBORError) -> CBORCase {
        CBORCase(name: name, input: bytes, limits: limits, expected: .failure(error))
    }

    static func accepts(_ name: String, bytes: [UInt8], limits: CBORLimits = CBORLimits(), _ value: CBOR) -> CBORCase {
        CBORCase(name: name, input: bytes, limits: limits, expected: .value(value))
    }
}

/// A map from text keys, in order.
func textMap(_ pairs: [(String, CBOR)]) -> CBOR {
    .map(CBORMap(pairs.map { CBORMap.Entry(key: .text($0.0), value: $0.1) }))
}

/// A map from integer keys, in order.
func integerMap(_ pairs: [(Int64, CBOR)]) -> CBOR {
    .map(CBORMap(pairs.map { CBORMap.Entry(key: .integer($0.0), value: $0.1) }))
}

/// `depth` one-element arrays around 0.
func nestedArrays(_ depth: Int) -> (bytes: [UInt8], value: CBOR) {
    var value = CBOR.integer(0)
    for _ in 0..<depth { value = .array([value]) }
    return ([UInt8](repeating: 0x81, count: depth) + [0x00], value)
}
