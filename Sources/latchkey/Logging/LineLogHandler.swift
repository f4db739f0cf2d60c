import FoundationEssentials
import Glibc
import Logging

/// Writes one line per event to standard error: readable text on a laptop, JSON in a
/// container. Callers never pass secrets in messages or metadata.
struct LineLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        let time = Date().formatted(.iso8601)
        switch format {
        case .text:
            let extras = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            StandardError.write("\(time) \(event.level) \(label): \(event.message)\(extras)\n")
        case .json:
            var object = ["time": time, "level": event.level.rawValue, "logger": label, "message": "\(event.message)"]
            for (key, value) in fields { object[key] = "\(value)" }
            let data = (try? Self.encoder.encode(object)) ?? Data()
            StandardError.write(String(decoding: data, as: UTF8.self) + "\n")
        }
    }
}

/// One `write(2)` per line, so lines from several threads never interleave.
enum StandardError {
    static func write(_ text: String) {
        var text = text
        text.withUTF8 { bytes in _ = Glibc.write(2, bytes.baseAddress, bytes.count) }
    }
}
