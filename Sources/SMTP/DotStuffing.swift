/// The message as the DATA command carries it: every line break CRLF (a bare CR or LF
/// becomes one, since SMTP forbids them), a `.` doubled at the start of any line so no
/// line of the message can end it early, and the closing `CRLF.CRLF`.
func dotStuffed(_ message: [UInt8]) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(message.count + message.count / 64 + 5)
    var atLineStart = true
    var index = 0
    while index < message.count {
        let byte = message[index]
        index += 1
        if byte == 0x0D || byte == 0x0A {
            if byte == 0x0D, index < message.count, message[index] == 0x0A { index += 1 }
            result.append(contentsOf: [0x0D, 0x0A])
            atLineStart = true
            continue
        }
        if atLineStart, byte == UInt8(ascii: ".") { result.append(byte) }
        result.append(byte)
        atLineStart = false
    }
    if !atLineStart { result.append(contentsOf: [0x0D, 0x0A]) }
    result.append(contentsOf: Array(".\r\n".utf8))
    return result
}
