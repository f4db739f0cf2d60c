import FlatJSON

/// Writes one JSON object straight into bytes. Response bodies are small and fixed in
/// shape; written by hand they cost a fraction of `JSONEncoder`, which on the hot path
/// (`GET /v1/users/me`) cost more than the rest of the request.
struct JSONObjectWriter {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    init() {
        bytes.reserveCapacity(256)
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

    /// A value that is already JSON (a nested object).
    mutating func field(_ key: String, json: [UInt8]) {
        writeKey(key)
        bytes.append(contentsOf: json)
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
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        writeString(key)
        bytes.append(UInt8(ascii: ":"))
    }

    /// Quoted and escaped as RFC 8259 requires, by the same code that writes token claims.
    private mutating func writeString(_ text: String) {
        FlatJSONObject.appendQuoted(text, to: &bytes)
    }
}
