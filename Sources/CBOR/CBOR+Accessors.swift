extension CBOR {
    /// The integer, or nil for any other kind of item.
    public var integer: Int64? {
        if case .integer(let value) = self { value } else { nil }
    }

    public var bytes: [UInt8]? {
        if case .bytes(let value) = self { value } else { nil }
    }

    public var text: String? {
        if case .text(let value) = self { value } else { nil }
    }

    public var array: [CBOR]? {
        if case .array(let value) = self { value } else { nil }
    }

    public var map: CBORMap? {
        if case .map(let value) = self { value } else { nil }
    }

    public var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }
}
