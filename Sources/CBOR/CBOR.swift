/// One CBOR data item (RFC 8949 §3) of the kinds WebAuthn uses: attestation objects,
/// authenticator data's credential public key (a COSE key) and attestation statements
/// hold nothing else. Tags, floats, `undefined` and indefinite lengths never get this far:
/// the reader refuses them.
public indirect enum CBOR: Sendable {
    /// Major types 0 and 1; an integer outside Int64 is refused by the reader.
    case integer(Int64)
    case bytes([UInt8])
    /// Valid UTF-8 (the reader checks). Compared as bytes, never by Unicode equivalence.
    case text(String)
    case array([CBOR])
    case map(CBORMap)
    case bool(Bool)
    case null
}

extension CBOR: Equatable {
    /// Text compares by its UTF-8 bytes: Swift's `==` on String treats canonically
    /// equivalent spellings as equal, and a protocol token is its bytes.
    public static func == (lhs: CBOR, rhs: CBOR) -> Bool {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): a == b
        case let (.bytes(a), .bytes(b)): a == b
        case let (.text(a), .text(b)): a.utf8.elementsEqual(b.utf8)
        case let (.array(a), .array(b)): a == b
        case let (.map(a), .map(b)): a == b
        case let (.bool(a), .bool(b)): a == b
        case (.null, .null): true
        case (.integer, _), (.bytes, _), (.text, _), (.array, _), (.map, _), (.bool, _), (.null, _): false
        }
    }
}
