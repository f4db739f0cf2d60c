import FlatJSON
import HTTPServer

/// An access line's fields in alphabetical order, every value a string: JSON members
/// (`"address":"…","bytes":"…",…`, without the braces) or text (`address=… bytes=… …`).
/// Runs for every request, so it writes straight into storage sized once for the worst
/// case (an output's buffer, or a string's), with each key and its punctuation copied as
/// one piece.
struct AccessLine {
    let completed: CompletedRequest
    let labels: RequestLabels
    let address: String
    let json: Bool

    /// The most bytes `write` can take: every text byte escaped as `\u00XX` at worst, three
    /// numbers of at most 20 digits, and the keys with their punctuation.
    var capacity: Int {
        let texts = address.utf8.count + labels.method.utf8.count + completed.requestID.utf8.count + labels.route.utf8.count
        return 6 * texts + 3 * 20 + 128
    }

    /// Writes the fields at `start` (room for `capacity` bytes); returns how many it wrote.
    func write(to start: UnsafeMutablePointer<UInt8>) -> Int {
        let keys = json ? Keys.json : Keys.text
        var line = Writer(start: start, json: json)
        line.piece(keys.address); line.text(address)
        line.piece(keys.bytes)
        if let bytes = completed.bodyBytes { line.decimal(UInt64(max(0, bytes))) } else { line.piece("stream") }
        line.piece(keys.duration)
        let micros = completed.nanoseconds / 1000
        line.decimal(micros / 1000)
        line.milliFraction(micros % 1000)
        line.piece(keys.method); line.text(labels.method)
        line.piece(keys.requestID); line.text(completed.requestID)
        line.piece(keys.route); line.text(labels.route)
        line.piece(keys.status); line.decimal(UInt64(max(0, completed.status)))
        line.piece(keys.end)
        return line.count
    }

    /// The fields as a string, for a logger that takes a message.
    var rendered: String {
        String(unsafeUninitializedCapacity: capacity) { buffer in write(to: buffer.baseAddress!) }
    }

    /// What comes before each value (and after the last). Numbers sit inside the JSON
    /// quotes the keys open, texts bring their own.
    private struct Keys {
        let address, bytes, duration, method, requestID, route, status, end: StaticString

        static let json = Keys(
            address: #""address":"#, bytes: #","bytes":""#, duration: #"","duration_ms":""#, method: #"","method":"#,
            requestID: #","request_id":"#, route: #","route":"#, status: #","status":""#, end: #"""#
        )
        static let text = Keys(
            address: "address=", bytes: " bytes=", duration: " duration_ms=", method: " method=", requestID: " request_id=",
            route: " route=", status: " status=", end: ""
        )
    }

    /// Writes into storage the caller sized for the whole line.
    private struct Writer {
        let start: UnsafeMutablePointer<UInt8>
        let json: Bool
        var count = 0

        mutating func piece(_ piece: StaticString) {
            (start + count).update(from: piece.utf8Start, count: piece.utf8CodeUnitCount)
            count += piece.utf8CodeUnitCount
        }

        /// Quoted and escaped in JSON; as it is in text (the method and route are labels,
        /// and the parser let no CR, LF or NUL into a request id or a forwarded address).
        mutating func text(_ value: String) {
            var value = value
            value.withUTF8 { utf8 in
                if json {
                    count += FlatJSONObject.writeQuoted(utf8, to: start + count)
                } else if let base = utf8.baseAddress {
                    (start + count).update(from: base, count: utf8.count)
                    count += utf8.count
                }
            }
        }

        mutating func decimal(_ value: UInt64) {
            var divisor: UInt64 = 1
            while divisor <= value / 10 { divisor *= 10 }
            // At most 20 digits.
            repeat {
                digit(value / divisor % 10)
                divisor /= 10
            } while divisor > 0
        }

        /// `.` and three digits.
        mutating func milliFraction(_ value: UInt64) {
            start[count] = UInt8(ascii: ".")
            count += 1
            digit(value / 100)
            digit(value / 10 % 10)
            digit(value % 10)
        }

        private mutating func digit(_ value: UInt64) {
            start[count] = UInt8(ascii: "0") + UInt8(value)
            count += 1
        }
    }
}
