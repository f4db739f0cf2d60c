import FlatJSON
import FoundationEssentials
import Glibc
import LatchkeyAPI
import Logging

/// Writes one line per event to standard error: readable text on a laptop, JSON in a
/// container. Callers never pass secrets in messages or metadata. The line is built as
/// bytes (no formatter, no encoder): the access log runs this for every request.
struct LineLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    /// Where lines go: at once, or, for the access log, through `BufferedStandardError`.
    let output: @Sendable ([UInt8]) -> Void

    init(label: String, format: LogFormat, logLevel: Logger.Level) {
        self.label = label
        self.format = format
        self.logLevel = logLevel
        output = label == "access" ? BufferedStandardError.shared.append : StandardError.write
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        let sorted = fields.sorted { $0.key < $1.key }
        let time = RFC3339.format(Int64(Glibc.time(nil)))
        var line: [UInt8] = []
        line.reserveCapacity(160 + 32 * sorted.count)
        switch format {
        case .text:
            line.append(contentsOf: "\(time) \(event.level) \(label): \(event.message)".utf8)
            for (key, value) in sorted { line.append(contentsOf: " \(key)=\(value)".utf8) }
        case .json:
            var object = [("time", time), ("level", event.level.rawValue), ("logger", label), ("message", "\(event.message)")]
            object += sorted.map { ($0.key, "\($0.value)") }
            line.append(UInt8(ascii: "{"))
            for (index, (key, value)) in object.enumerated() {
                if index > 0 { line.append(UInt8(ascii: ",")) }
                FlatJSONObject.appendQuoted(key, to: &line)
                line.append(UInt8(ascii: ":"))
                FlatJSONObject.appendQuoted(value, to: &line)
            }
            line.append(UInt8(ascii: "}"))
        }
        line.append(UInt8(ascii: "\n"))
        output(line)
    }
}

/// One `write(2)` per line, so lines from several threads never interleave.
enum StandardError {
    static func write(_ text: String) {
        write(Array(text.utf8))
    }

    @Sendable static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
