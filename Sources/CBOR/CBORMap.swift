/// A map's key: WebAuthn and COSE use integer labels (COSE keys) and text names
/// (attestation objects, statements); the reader refuses any other kind of key.
public enum CBORMapKey: Sendable {
    case integer(Int64)
    case text(String)
}

extension CBORMapKey: Hashable {
    /// By bytes, as `CBOR`'s text: two spellings of one character are two keys, so an
    /// attacker cannot make `"fmt"` and a look-alike collide or slip past the duplicate check.
    public static func == (lhs: CBORMapKey, rhs: CBORMapKey) -> Bool {
        switch (lhs, rhs) {
        case let (.integer(a), .integer(b)): a == b
        case let (.text(a), .text(b)): a.utf8.elementsEqual(b.utf8)
        case (.integer, _), (.text, _): false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .integer(let value):
            hasher.combine(0 as UInt8)
            hasher.combine(value)
        case .text(let value):
            hasher.combine(1 as UInt8)
            for byte in value.utf8 { hasher.combine(byte) }
        }
    }
}

/// A CBOR map in its encoded order, with no key twice (the reader refuses duplicates, so a
/// lookup has one answer whichever end it searches from).
public struct CBORMap: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public let key: CBORMapKey
        public let value: CBOR

        public init(key: CBORMapKey, value: CBOR) {
            self.key = key
            self.value = value
        }
    }

    public let entries: [Entry]

    /// For tests and callers that build a map; the reader is the only source of untrusted
    /// maps and enforces unique keys itself.
    public init(_ entries: [Entry]) {
        self.entries = entries
    }

    public var count: Int { entries.count }

    /// A linear search: the reader bounds a map's size (`CBORLimits.maxItemsPerContainer`),
    /// and WebAuthn's maps hold a handful of entries.
    public subscript(key: CBORMapKey) -> CBOR? {
        entries.first { $0.key == key }?.value
    }

    public subscript(label: Int64) -> CBOR? {
        self[.integer(label)]
    }

    public subscript(name: String) -> CBOR? {
        self[.text(name)]
    }
}
