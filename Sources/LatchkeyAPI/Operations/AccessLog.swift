import FlatJSON
import HTTPServer
import Logging

/// One line per answered request through swift-log (label `access`, level info): method,
/// route template, status, duration, body bytes, request id and client address. Never
/// the raw path or query (a reset link's token), a header or a body.
struct AccessLog: Sendable {
    let logger: Logger
    let clientAddress: ClientAddress

    func record(_ completed: CompletedRequest) {
        let record = AccessRecord(
            completed, address: clientAddress.hop(peer: completed.remoteAddress, forwardedFor: completed.forwardedFor)
        )
        logger.info("request", metadata: [AccessRecord.metadataKey: .stringConvertible(record)])
    }
}

/// An access line's fields as one metadata value: a handler that knows the type writes
/// them straight into its line (`appendJSONFields`, `appendTextFields`), without the
/// dictionary of seven strings and the formatting a generic handler needs; any other
/// handler prints `description`. Fields in alphabetical order, every value a string. A
/// class: boxed as metadata, cast back and captured, it is one reference to count, not
/// six strings.
public final class AccessRecord: Sendable, CustomStringConvertible {
    public static let metadataKey = "access"

    let completed: CompletedRequest
    let address: String

    /// The event loop that answered: a handler can keep a buffer per loop.
    public var eventLoopIndex: Int { completed.eventLoopIndex }

    init(_ completed: CompletedRequest, address: String) {
        self.completed = completed
        self.address = address
    }

    public var description: String {
        var line: [UInt8] = []
        appendTextFields(to: &line)
        return String(decoding: line.dropFirst(), as: UTF8.self)
    }

    /// `,"address":"…",…`: the fields after what the line already holds.
    public func appendJSONFields(to line: inout [UInt8]) {
        appendFields(to: &line, json: true)
    }

    /// ` address=… bytes=…`.
    public func appendTextFields(to line: inout [UInt8]) {
        appendFields(to: &line, json: false)
    }

    /// Runs for every request: numbers go in as digits, nothing is formatted twice.
    private func appendFields(to line: inout [UInt8], json: Bool) {
        func key(_ name: StaticString) {
            line.append(json ? UInt8(ascii: ",") : UInt8(ascii: " "))
            if json { line.append(UInt8(ascii: "\"")) }
            name.withUTF8Buffer { line.append(contentsOf: $0) }
            if json {
                line.append(UInt8(ascii: "\""))
                line.append(UInt8(ascii: ":"))
            } else {
                line.append(UInt8(ascii: "="))
            }
        }
        func text(_ value: String) {
            if json { FlatJSONObject.appendQuoted(value, to: &line) } else { line.append(contentsOf: value.utf8) }
        }
        func number(_ value: UInt64, fraction: UInt64? = nil) {
            if json { line.append(UInt8(ascii: "\"")) }
            Self.appendDecimal(value, to: &line)
            if let fraction {
                line.append(UInt8(ascii: "."))
                for digit in [fraction / 100, fraction / 10 % 10, fraction % 10] { line.append(UInt8(ascii: "0") + UInt8(digit)) }
            }
            if json { line.append(UInt8(ascii: "\"")) }
        }
        key("address"); text(address)
        key("bytes")
        if let bytes = completed.bodyBytes { number(UInt64(bytes)) } else { text("stream") }
        let micros = completed.nanoseconds / 1000
        key("duration_ms"); number(micros / 1000, fraction: micros % 1000)
        key("method"); text(completed.method)
        key("request_id"); text(completed.requestID)
        key("route"); text(completed.route)
        key("status"); number(UInt64(max(0, completed.status)))
    }

    static func appendDecimal(_ value: UInt64, to line: inout [UInt8]) {
        var divisor: UInt64 = 1
        while divisor <= value / 10 { divisor *= 10 }
        // At most 20 digits.
        repeat {
            line.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }
}
