// libFuzzer target for the CBOR reader (Sources/CBOR).
//
// Built by `scripts/fuzz cbor` together with Sources/CBOR/*.swift into one module. Every
// property a WebAuthn caller relies on is checked here and a violation traps, which
// libFuzzer reports as a crash with the input saved:
//   - a read gives the same outcome twice (the reader keeps nothing between reads);
//   - an item read from a prefix uses at least one byte and no more than it was given,
//     and the same bytes alone read whole as the same value; bytes after it change nothing;
//   - `read` accepts exactly the inputs whose one item fills them;
//   - an accepted value keeps the limits (depth, items per container), has no map key twice
//     (compared as bytes) and no text that is not UTF-8;
//   - the value re-encoded in the preferred (shortest) form reads back as itself, in no more
//     bytes than it came in.
// A third of the inputs (first byte divisible by 3) run with small limits, so the limit
// errors are reached without large inputs.

#if canImport(Glibc)
import Glibc
#endif

/// Small enough that depth and item limits are hit by short inputs.
private let smallLimits = CBORLimits(maxDepth: 3, maxItemsPerContainer: 4, maxInputBytes: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = UnsafeBufferPointer(start: data, count: size)
    let limits = size > 0 && data[0] % 3 == 0 ? smallLimits : CBORLimits()
    let reader = CBORReader(limits: limits)

    let first = outcome { () throws(CBORError) in try reader.readPrefix(input) }
    let again = outcome { () throws(CBORError) in try reader.readPrefix(input) }
    check(first == again, "two reads of the same input differ: \(first) vs \(again)")

    let whole = outcome { () throws(CBORError) in (try reader.read(input), input.count) }
    switch first {
    case .failure(let error):
        check(whole == .failure(error), "read and readPrefix fail differently: \(whole) vs \(error)")
    case .success(let value, let consumed):
        check(consumed >= 1 && consumed <= input.count, "consumed \(consumed) of \(input.count)")
        if consumed == input.count {
            check(whole == first, "read refuses what readPrefix took whole: \(whole)")
        } else {
            check(whole == .failure(.trailingBytes), "read of an item with bytes after it: \(whole)")
        }
        let alone = outcome { () throws(CBORError) in (try reader.read(UnsafeBufferPointer(rebasing: input[..<consumed])), consumed) }
        check(alone == first, "the item's bytes alone read differently: \(alone)")
        checkValue(value, limits: limits, depth: 0)
        let encoded = PreferredEncoder.encode(value)
        check(encoded.count <= consumed, "preferred encoding longer (\(encoded.count)) than the input's (\(consumed))")
        let reread = encoded.withUnsafeBufferPointer { bytes in outcome { () throws(CBORError) in (try reader.read(bytes), bytes.count) } }
        check(reread == .success(value, encoded.count), "re-encoded value reads back as \(reread)")
    }
    return 0
}

// MARK: - Invariants

private func checkValue(_ value: CBOR, limits: CBORLimits, depth: Int) {
    switch value {
    case .array(let elements):
        check(depth + 1 <= limits.maxDepth, "array at depth \(depth + 1) accepted")
        check(elements.count <= limits.maxItemsPerContainer, "array of \(elements.count) accepted")
        for element in elements { checkValue(element, limits: limits, depth: depth + 1) }
    case .map(let map):
        check(depth + 1 <= limits.maxDepth, "map at depth \(depth + 1) accepted")
        check(map.count <= limits.maxItemsPerContainer, "map of \(map.count) accepted")
        var keys: [[UInt8]] = []
        for entry in map.entries {
            let key: [UInt8]
            switch entry.key {
            case .integer(let label): key = [0] + PreferredEncoder.encode(.integer(label))
            case .text(let name): key = [1] + Array(name.utf8)
            }
            check(!keys.contains(key), "a map key twice")
            keys.append(key)
            checkValue(entry.value, limits: limits, depth: depth + 1)
        }
    case .text(let text):
        check(String(validating: Array(text.utf8), as: UTF8.self) != nil, "text that is not UTF-8")
    case .integer, .bytes, .bool, .null:
        break
    }
}

// MARK: - Support

private enum Outcome: Equatable {
    case success(CBOR, Int)
    case failure(CBORError)
}

private func outcome(_ body: () throws(CBORError) -> (CBOR, Int)) -> Outcome {
    do throws(CBORError) {
        let (value, consumed) = try body()
        return .success(value, consumed)
    } catch {
        return .failure(error)
    }
}

/// RFC 8949 §4.1's preferred serialization of the kinds the reader returns: each head in
/// its shortest form, map entries in the order they came.
private enum PreferredEncoder {
    static func encode(_ value: CBOR) -> [UInt8] {
        var output: [UInt8] = []
        append(value, to: &output)
        return output
    }

    private static func append(_ value: CBOR, to output: inout [UInt8]) {
        switch value {
        case .integer(let integer) where integer >= 0: head(0, UInt64(integer), &output)
        case .integer(let integer): head(1, UInt64(-1 - integer), &output)
        case .bytes(let bytes):
            head(2, UInt64(bytes.count), &output)
            output += bytes
        case .text(let text):
            head(3, UInt64(text.utf8.count), &output)
            output += text.utf8
        case .array(let elements):
            head(4, UInt64(elements.count), &output)
            for element in elements { append(element, to: &output) }
        case .map(let map):
            head(5, UInt64(map.count), &output)
            for entry in map.entries {
                switch entry.key {
                case .integer(let label): append(.integer(label), to: &output)
                case .text(let name): append(.text(name), to: &output)
                }
                append(entry.value, to: &output)
            }
        case .bool(let bool): output.append(bool ? 0xF5 : 0xF4)
        case .null: output.append(0xF6)
        }
    }

    private static func head(_ major: UInt8, _ argument: UInt64, _ output: inout [UInt8]) {
        let type = major << 5
        let width: Int
        switch argument {
        case 0..<24:
            output.append(type | UInt8(argument))
            return
        case 24...0xFF:
            output.append(type | 24)
            width = 1
        case 0x100...0xFFFF:
            output.append(type | 25)
            width = 2
        case 0x1_0000...0xFFFF_FFFF:
            output.append(type | 26)
            width = 4
        default:
            output.append(type | 27)
            width = 8
        }
        for shift in (0..<width).reversed() { output.append(UInt8(truncatingIfNeeded: argument >> (8 * shift))) }
    }
}

private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() {
        let text = "CBORFuzzer invariant failed: " + message() + "\n"
        text.withCString { _ = fputs($0, stderr) }
        fatalError("CBORFuzzer invariant failed")
    }
}
