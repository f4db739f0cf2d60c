import ClientSocket

/// One connection to a mail server (`ClientSocket`: every step waits with a deadline,
/// first plain, then, after STARTTLS or from the start, TLS). Replies are read a line at a
/// time into a bounded buffer.
final class SMTPChannel {
    private let socket: ClientSocket
    private var buffer: [UInt8] = []
    private var consumed = 0
    /// RFC 5321 allows 512 bytes per reply line; a little more is tolerated, no more.
    static let maximumLineLength = 2048

    var isEncrypted: Bool { socket.isEncrypted }

    /// Connects to the first address of `host` that answers before `deadline`.
    init(host: String, port: UInt16, deadline: Deadline) throws(SMTPError) {
        do {
            socket = try ClientSocket(host: host, port: port, deadline: deadline)
        } catch {
            throw SMTPError(error)
        }
    }

    /// Starts TLS on this connection, verifying the server's certificate for `host`.
    func startTLS(context: TLSContext, host: String, deadline: Deadline) throws(SMTPError) {
        guard consumed == buffer.count else { throw .malformedReply("bytes after the reply that starts TLS") }
        do {
            try socket.startTLS(context: context, host: host, deadline: deadline)
        } catch {
            throw SMTPError(error)
        }
    }

    func write(_ bytes: [UInt8], step: String, deadline: Deadline) throws(SMTPError) {
        do {
            try socket.write(bytes, step: step, deadline: deadline)
        } catch {
            throw SMTPError(error)
        }
    }

    /// The next line without its CRLF; a line longer than `maximumLineLength` is an error.
    func readLine(step: String, deadline: Deadline) throws(SMTPError) -> ArraySlice<UInt8> {
        while true {
            if let newline = buffer[consumed...].firstIndex(of: 0x0A) {
                var end = newline
                if end > consumed, buffer[end - 1] == 0x0D { end -= 1 }
                let line = buffer[consumed..<end]
                consumed = newline + 1
                return line
            }
            guard buffer.count - consumed <= Self.maximumLineLength else { throw .malformedReply("a reply line longer than \(Self.maximumLineLength) bytes") }
            if consumed > 0 {
                buffer.removeFirst(consumed)
                consumed = 0
            }
            try fill(step: step, deadline: deadline)
        }
    }

    private func fill(step: String, deadline: Deadline) throws(SMTPError) {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let count: Int
        do {
            count = try socket.read(into: &chunk, step: step, deadline: deadline)
        } catch {
            throw SMTPError(error)
        }
        guard count > 0 else { throw .closed(step) }
        buffer.append(contentsOf: chunk[..<count])
    }
}
