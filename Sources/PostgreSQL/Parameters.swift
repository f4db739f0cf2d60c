import CPostgreSQL
import SQLValues

/// Parameter values laid out the way PQexecPrepared takes them.
///
/// Numbers and text go as text (format 0), which every column type parses, so the server
/// can infer each parameter's type from where it stands (the statement is prepared without
/// types): a `?` compared to a bigint column reads "42" as a bigint, the same "42" inserted
/// into a text column stays text. Blobs go in binary format (1): their bytes as they are,
/// no hex round trip. NULL is a NULL pointer.
struct Parameters {
    private var bytes: [UInt8] = []
    /// Where each value starts in `bytes`; nil for NULL.
    private var offsets: [Int?] = []
    private(set) var lengths: [Int32] = []
    private(set) var formats: [Int32] = []

    init(_ values: [SQLValue]) throws(PostgreSQLError) {
        for value in values {
            switch value {
            case .null:
                offsets.append(nil)
                lengths.append(0)
                formats.append(0)
            case .integer(let integer):
                appendText(String(integer))
            case .real(let real):
                appendText(Self.text(of: real))
            case .text(let text):
                // Text parameters are C strings to libpq: an embedded NUL would silently cut
                // the value short. PostgreSQL text cannot hold NUL anyway, so refuse it the
                // way the server refuses it (22021), without quoting the value.
                guard !text.utf8.contains(0) else {
                    throw PostgreSQLError.other(
                        sqlstate: "22021", message: "a text parameter contains a NUL character, which PostgreSQL text cannot hold"
                    )
                }
                appendText(text)
            case .blob(let blob):
                offsets.append(bytes.count)
                bytes.append(contentsOf: blob)
                lengths.append(Int32(blob.count))
                formats.append(1)
            }
        }
        // A zero-length blob at the end still needs a valid, non-NULL address (NULL would
        // bind SQL NULL), and so does an all-NULL list's base pointer.
        bytes.append(0)
    }

    var count: Int { offsets.count }

    private mutating func appendText(_ text: String) {
        offsets.append(bytes.count)
        bytes.append(contentsOf: text.utf8)
        bytes.append(0)
        lengths.append(Int32(text.utf8.count))
        formats.append(0)
    }

    /// Shortest text that reads back as the same Double (Swift's `description` round-trips
    /// exactly); the special values in the spelling float8in accepts.
    static func text(of value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value == .infinity { return "Infinity" }
        if value == -.infinity { return "-Infinity" }
        return value.description
    }

    /// Pointers into this value's storage, valid only inside `body`.
    func withPointers<R>(
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> R
    ) -> R {
        bytes.withUnsafeBytes { storage in
            let base = storage.baseAddress!.assumingMemoryBound(to: CChar.self)
            let values: [UnsafePointer<CChar>?] = offsets.map { offset in offset.map { base + $0 } }
            return values.withUnsafeBufferPointer { values in
                lengths.withUnsafeBufferPointer { lengths in
                    formats.withUnsafeBufferPointer { formats in
                        body(values.baseAddress, lengths.baseAddress, formats.baseAddress)
                    }
                }
            }
        }
    }
}
