import FlatJSON
import FoundationEssentials
import Glibc
import LatchkeyAPI
import Logging
import Synchronization

/// Writes one line per event to standard error: readable text on a laptop, JSON in a
/// container. Callers never pass secrets in messages or metadata. The line is built as
/// bytes (no formatter, no encoder). The access log does not come through here: its lines
/// go straight into `BufferedStandardError` (`AccessLineBuffer`).
struct LineLogHandler: LogHandler {
    let label: String
    let format: LogFormat
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    /// `,"logger":"<label>"`, made once: every JSON line carries it.
    private let quotedLabel: [UInt8]

    init(label: String, format: LogFormat, logLevel: Logger.Level) {
        self.label = label
        self.format = format
        self.logLevel = logLevel
        var quoted = Array(#","logger":"#.utf8)
        FlatJSONObject.appendQuoted(label, to: &quoted)
        quotedLabel = quoted
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var fields = metadata
        if let extra = event.metadata { fields.merge(extra) { $1 } }
        let sorted = fields.sorted { $0.key < $1.key }
        emit { line in
            start(event, time: LogTime.now(), on: &line)
            for (key, value) in sorted {
                switch format {
                case .text: line.append(contentsOf: " \(key)=\(value)".utf8)
                case .json: append(key, "\(value)", to: &line)
                }
            }
            finish(&line)
        }
    }

    private func emit(_ write: (inout [UInt8]) -> Void) {
        var line: [UInt8] = []
        line.reserveCapacity(256)
        write(&line)
        StandardError.write(line)
    }

    /// The time, level, logger and message: `2026-11-25T13:05:16Z info latchkey: …` or
    /// `{"time":…,"level":…,"logger":…,"message":…` (left open for the fields).
    private func start(_ event: LogEvent, time: [UInt8], on line: inout [UInt8]) {
        switch format {
        case .text:
            line.append(contentsOf: time)
            line.append(contentsOf: " \(event.level) \(label): \(event.message.description)".utf8)
        case .json:
            line.append(contentsOf: #"{"time":""#.utf8)
            line.append(contentsOf: time)
            line.append(UInt8(ascii: "\""))
            append("level", event.level.rawValue, to: &line)
            line.append(contentsOf: quotedLabel)
            append("message", event.message.description, to: &line)
        }
    }

    private func append(_ key: String, _ value: String, to line: inout [UInt8]) {
        line.append(UInt8(ascii: ","))
        FlatJSONObject.appendQuoted(key, to: &line)
        line.append(UInt8(ascii: ":"))
        FlatJSONObject.appendQuoted(value, to: &line)
    }

    private func finish(_ line: inout [UInt8]) {
        if format == .json { line.append(UInt8(ascii: "}")) }
        line.append(UInt8(ascii: "\n"))
    }
}

/// One `write(2)` per line, so lines from several threads never interleave.
enum StandardError {
    static func write(_ text: String) {
        write(Array(text.utf8))
    }

    static func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { _ = Glibc.write(2, $0.baseAddress, $0.count) }
    }
}

/// The current second as RFC 3339 bytes, formatted once per second rather than per line.
struct LogTime {
    /// `RFC3339.format` writes exactly `2026-11-25T13:05:16Z`.
    static let longest = 20

    private var second: Int64 = -1
    private var text: [UInt8] = []

    mutating func now() -> [UInt8] {
        let now = Int64(Glibc.time(nil))
        if now != second { (second, text) = (now, Array(RFC3339.format(now).utf8)) }
        return text
    }

    /// For lines outside the access log's buffer shares (which keep their own).
    private static let shared = Mutex(LogTime())

    static func now() -> [UInt8] {
        shared.withLock { $0.now() }
    }
}

extension UnsafeMutablePointer<UInt8> {
    /// Copies `bytes` here; returns where the next byte goes.
    func copy(_ bytes: UnsafeBufferPointer<UInt8>) -> UnsafeMutablePointer<UInt8> {
        if let base = bytes.baseAddress { update(from: base, count: bytes.count) }
        return self + bytes.count
    }
}
