import LatchkeyCore

/// The Prometheus text exposition format (version 0.0.4), written by hand: a handful of
/// families, so a dependency would cost more than it saves.
struct PrometheusText {
    private(set) var text = ""

    mutating func family(_ name: String, _ type: String, _ help: String) {
        text += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    mutating func sample(_ name: String, _ labels: [(String, String)] = [], _ value: some CustomStringConvertible) {
        text += name + Self.labels(labels) + " \(value)\n"
    }

    /// `_bucket` lines with cumulative counts up to `+Inf`, then `_sum` and `_count`.
    mutating func histogram(_ name: String, _ labels: [(String, String)] = [], _ histogram: Histogram) {
        var cumulative: UInt64 = 0
        for (slot, bound) in histogram.bounds.enumerated() {
            cumulative += histogram.counts[slot]
            sample(name + "_bucket", labels + [("le", "\(bound)")], cumulative)
        }
        sample(name + "_bucket", labels + [("le", "+Inf")], histogram.count)
        sample(name + "_sum", labels, histogram.sum)
        sample(name + "_count", labels, histogram.count)
    }

    private static func labels(_ labels: [(String, String)]) -> String {
        guard !labels.isEmpty else { return "" }
        return "{" + labels.map { "\($0.0)=\"\(escaped($0.1))\"" }.joined(separator: ",") + "}"
    }

    private static func escaped(_ value: String) -> String {
        var result = ""
        for character in value.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
