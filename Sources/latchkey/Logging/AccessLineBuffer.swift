import FlatJSON
import LatchkeyAPI

/// The access log's way out: each line goes straight into `BufferedStandardError`'s share
/// of the calling loop, the time, the line's fixed parts and the fields (written there by
/// the API's `AccessLine`) copied one after another. The lines look as `LineLogHandler`'s
/// do for the `access` logger: `2026-11-25T13:05:16Z info access: request address=…` in
/// text, `{"time":…,"level":"info","logger":"access","message":"request","address":…}` in
/// JSON. A class, so reaching it through the access log costs one reference, not a copy
/// of its three arrays per request.
final class AccessLineBuffer: AccessLineOutput {
    let format: AccessLogFormat
    /// A line is `opening`, the time, `beforeFields`, the fields, `closing`.
    private let opening: [UInt8]
    private let beforeFields: [UInt8]
    private let closing: [UInt8]

    init(format: LogFormat) {
        switch format {
        case .text:
            self.format = .text
            (opening, beforeFields, closing) = ([], Array(" info access: request ".utf8), [UInt8(ascii: "\n")])
        case .json:
            self.format = .json
            var label = Array(#","logger":"#.utf8)
            FlatJSONObject.appendQuoted("access", to: &label)
            (opening, beforeFields, closing) = (
                Array(#"{"time":""#.utf8), Array(#"","level":"info""#.utf8) + label + Array(#","message":"request","#.utf8), Array("}\n".utf8)
            )
        }
    }

    func writeLine(maxFieldBytes: Int, _ writeFields: (UnsafeMutablePointer<UInt8>) -> Int) {
        let most = opening.count + LogTime.longest + beforeFields.count + maxFieldBytes + closing.count
        BufferedStandardError.shared.append(maxBytes: most) { out, time in
            var end = opening.withUnsafeBufferPointer { out.copy($0) }
            end = time.withUnsafeBufferPointer { end.copy($0) }
            end = beforeFields.withUnsafeBufferPointer { end.copy($0) }
            end += writeFields(end)
            end = closing.withUnsafeBufferPointer { end.copy($0) }
            return end - out
        }
    }
}
