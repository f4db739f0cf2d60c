import Foundation
import Logging

/// Writes one line per event to standard error: readable text on a laptop, JSON in a
/// container. Callers never pass secrets in messages or metadata.
struct LineLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        let time = Date().formatted(.iso8601)
        let line: String
        switch format {
        case .text:
            let extras = fields.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            line = "\(time) \(event.level) \(label): \(event.message)\(extras)\n"
        case .json:
            var object: [String: String] = ["time": time, "level": event.level.rawValue, "logger": label, "message": "\(event.message)"]
            for (key, value) in fields { object[key] = "\(value)" }
            let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
            line = String(decoding: data, as: UTF8.self) + "\n"
        }
        FileHandle.standardError.write(Data(line.utf8))
    }
}
