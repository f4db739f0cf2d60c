/// One server-sent event: its `event` name (`message` when none was given) and its data
/// lines joined with newlines.
struct ServerSentEvent: Sendable, Hashable {
    var event: String
    var data: String
}

/// Reads a `text/event-stream` body as the HTML standard's EventSource does: lines end
/// with CRLF, LF or CR (a CRLF split across two pieces counts once), a blank line ends an
/// event, `:` starts a comment (the server's keep-alive), and `field: value` lines fill
/// the event. Bytes arrive in pieces of any size; events come out whole.
struct ServerSentEventParser {
    /// A longer line is cut here, so a broken server cannot grow the client's memory.
    static let maximumLineBytes = 1 << 20

    private var line: [UInt8] = []
    private var lastWasCR = false
    private var eventName = ""
    private var dataLines: [String] = []

    init() {}

    /// Takes the next piece of the body and returns the events it completed.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "\n") where lastWasCR:
                lastWasCR = false
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                lastWasCR = byte == UInt8(ascii: "\r")
                if let event = endLine() { events.append(event) }
            default:
                lastWasCR = false
                if line.count < Self.maximumLineBytes { line.append(byte) }
            }
        }
        return events
    }

    /// Interprets the line just ended; a blank one dispatches the event gathered so far.
    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let text = String(decoding: line, as: UTF8.self)
        var field = Substring(text)
        var value: Substring = ""
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        }
        switch field {
        case "event": eventName = String(value)
        case "data": dataLines.append(String(value))
        default: break  // `id` and `retry`: the stream has no ids, and back-off is ours
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer { (eventName, dataLines) = ("", []) }
        guard !dataLines.isEmpty else { return nil }
        return ServerSentEvent(event: eventName.isEmpty ? "message" : eventName, data: dataLines.joined(separator: "\n"))
    }
}
