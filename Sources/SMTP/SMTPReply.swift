import ClientSocket

/// One server reply: its three-digit code and the text of each line (`250-...`, `250 ...`).
struct SMTPReply {
    let code: Int
    let lines: [ArraySlice<UInt8>]

    /// The reply's text for an error message, kept short.
    var text: String {
        String(decoding: lines.first ?? [], as: UTF8.self).prefix(200).description
    }

    /// A server that talks longer than this is not talking SMTP.
    static let maximumLines = 100
}

extension SMTPChannel {
    func readReply(step: String, deadline: Deadline) throws(SMTPError) -> SMTPReply {
        var lines: [ArraySlice<UInt8>] = []
        var code: Int?
        for _ in 0..<SMTPReply.maximumLines {
            let line = try readLine(step: step, deadline: deadline)
            let digits = line.prefix(3)
            guard digits.count == 3, digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
                throw .malformedReply("\(step) answered a line without a reply code")
            }
            let lineCode = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
            guard code == nil || code == lineCode else { throw .malformedReply("\(step) mixed reply codes") }
            code = lineCode
            lines.append(line.dropFirst(4))
            guard line.count > 3, line[line.startIndex + 3] == UInt8(ascii: "-") else {
                return SMTPReply(code: lineCode, lines: lines)
            }
        }
        throw .malformedReply("\(step) answered more than \(SMTPReply.maximumLines) lines")
    }

    /// Sends `command` (CRLF added) and reads the reply; throws unless its code is one of
    /// `expected`. `shown` replaces the command in errors when it carries a secret.
    @discardableResult
    func exchange(_ command: String, expecting expected: Set<Int>, step: String, deadline: Deadline) throws(SMTPError) -> SMTPReply {
        try write(Array((command + "\r\n").utf8), step: step, deadline: deadline)
        return try expect(expected, step: step, deadline: deadline)
    }

    @discardableResult
    func expect(_ expected: Set<Int>, step: String, deadline: Deadline) throws(SMTPError) -> SMTPReply {
        let reply = try readReply(step: step, deadline: deadline)
        guard expected.contains(reply.code) else { throw .rejected(step: step, code: reply.code, text: reply.text) }
        return reply
    }
}
