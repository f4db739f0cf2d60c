import FlatJSON

/// Writes one JSON object straight into bytes. Response bodies are small and fixed in
/// shape; written by hand they cost a fraction of `JSONEncoder`, which on the hot path
/// (`GET /v1/users/me`) cost more than the rest of the request.
struct JSONObjectWriter {
    private var bytes: [UInt8]
    /// Where this object's `{` is: a nested object (`field(_:object:)`) continues in the
    /// same bytes.
    private var opening = 0

    /// `capacity`: the bytes the whole body is expected to take, reserved once (a
    /// TokenPair is some 800 bytes, and each growth copies what was written).
    init(capacity: Int = 256) {
        bytes = [UInt8(ascii: "{")]
        bytes.reserveCapacity(capacity)
    }

    mutating func field(_ key: String, _ value: String?) {
        writeKey(key)
        if let value { writeString(value) } else { bytes.append(contentsOf: "null".utf8) }
    }

    mutating func field(_ key: String, _ value: Bool) {
        writeKey(key)
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
    }

    mutating func field(_ key: String, _ value: Int64) {
        writeKey(key)
        bytes.append(contentsOf: String(value).utf8)
    }

    /// A nested object, written by `write` in place (not built apart and copied in).
    mutating func field(_ key: String, object write: (inout JSONObjectWriter) -> Void) {
        writeKey(key)
        var nested = JSONObjectWriter(continuing: &bytes)
        write(&nested)
        bytes = nested.finish()
    }

    /// Takes `bytes` over (leaving them empty) and opens an object at their end.
    private init(continuing bytes: inout [UInt8]) {
        self.bytes = []
        swap(&self.bytes, &bytes)
        opening = self.bytes.count
        self.bytes.append(UInt8(ascii: "{"))
    }

    /// An array of strings (`methods`, recovery codes).
    mutating func field(_ key: String, strings: [String]) {
        writeKey(key)
        bytes.append(UInt8(ascii: "["))
        for (index, element) in strings.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            writeString(element)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An array of values that are already JSON.
    mutating func field(_ key: String, jsonArray: [[UInt8]]) {
        writeKey(key)
        bytes.append(UInt8(ascii: "["))
        for (index, element) in jsonArray.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(contentsOf: element)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func writeKey(_ key: String) {
        if bytes.count > opening + 1 { bytes.append(UInt8(ascii: ",")) }
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Quoted and escaped as RFC 8259 requires, by the same code that writes token claims.
    private mutating func writeString(_ text: String) {
        FlatJSONObject.appendQuoted(text, to: &bytes)
    }
}
