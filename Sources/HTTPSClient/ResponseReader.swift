import ClientSocket

/// Reads one answer from a connection: the head (at most `maximumHeadBytes`), interim 1xx
/// answers skipped (at most 4), then the body by its framing (RFC 9112 §6.3): chunked,
/// else Content-Length, else up to the close; never more than `maximumBodyBytes`.
struct ResponseReader {
    let socket: ClientSocket
    let maximumHeadBytes: Int
    let maximumBodyBytes: Int
    let deadline: Deadline
    private var buffer: [UInt8] = []
    private var consumed = 0
    private var closed = false

    init(socket: ClientSocket, maximumHeadBytes: Int, maximumBodyBytes: Int, deadline: Deadline) {
        self.socket = socket
        self.maximumHeadBytes = maximumHeadBytes
        self.maximumBodyBytes = maximumBodyBytes
        self.deadline = deadline
    }

    mutating func read(forHEAD: Bool = false) throws(HTTPSError) -> HTTPSResponse {
        for _ in 0..<5 {
            let head = try ResponseHead(readHead())
            if (100...199).contains(head.status) { continue }
            if (300...399).contains(head.status) { throw .redirectRefused(status: head.status) }
            let body = forHEAD || head.status == 204 || head.status == 304 ? [] : try readBody(head)
            return HTTPSResponse(status: head.status, headers: head.headers, body: body)
        }
        throw .malformedResponse("more than 4 interim (1xx) answers")
    }

    private mutating func readHead() throws(HTTPSError) -> ArraySlice<UInt8> {
        let end = Array("\r\n\r\n".utf8)
        for _ in 0..<100_000 {
            if let found = firstIndex(of: end) {
                guard found - consumed <= maximumHeadBytes else { throw .tooLarge("a head over \(maximumHeadBytes) bytes") }
                let head = buffer[consumed..<found]
                consumed = found + end.count
                return head
            }
            guard buffer.count - consumed <= maximumHeadBytes else { throw .tooLarge("a head over \(maximumHeadBytes) bytes") }
            guard try fill(step: "the answer's head") else { throw .malformedResponse("the connection closed before the answer's head ended") }
        }
        throw .malformedResponse("no end of the head")
    }

    private mutating func readBody(_ head: ResponseHead) throws(HTTPSError) -> [UInt8] {
        let encodings = head.values("Transfer-Encoding")
        if !encodings.isEmpty {
            let last = encodings.last!.split(separator: ",").last.map { $0.utf8.filter { $0 != 0x20 && $0 != 0x09 } } ?? []
            guard ResponseHead.namesEqual(String(decoding: last, as: UTF8.self), "chunked") else {
                throw .malformedResponse("a transfer coding other than chunked last")
            }
            return try readChunked()
        }
        let lengths = head.values("Content-Length")
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.utf8.count <= 12, first.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                  let length = Int(first)
            else { throw .malformedResponse("a Content-Length that is not one number") }
            guard length <= maximumBodyBytes else { throw .tooLarge("a body of \(length) bytes, over \(maximumBodyBytes)") }
            return try readExactly(length, step: "the answer's body")
        }
        for _ in 0..<1_000_000 where !closed {
            guard buffer.count - consumed <= maximumBodyBytes else { throw .tooLarge("a body over \(maximumBodyBytes) bytes") }
            _ = try fill(step: "the answer's body")
        }
        guard buffer.count - consumed <= maximumBodyBytes else { throw .tooLarge("a body over \(maximumBodyBytes) bytes") }
        return Array(buffer[consumed...])
    }

    private mutating func readChunked() throws(HTTPSError) -> [UInt8] {
        var body: [UInt8] = []
        for _ in 0..<100_000 {
            let line = try readLine()
            let sizeDigits = line.prefix { $0 != UInt8(ascii: ";") }.filter { $0 != 0x20 && $0 != 0x09 }
            guard (1...8).contains(sizeDigits.count), let size = Int(String(decoding: sizeDigits, as: UTF8.self), radix: 16) else {
                throw .malformedResponse("a chunk size that is not hexadecimal")
            }
            if size == 0 {
                for _ in 0...ResponseHead.maximumFields {  // trailers, ignored, up to the empty line
                    if try readLine().isEmpty { return body }
                }
                throw .tooLarge("more than \(ResponseHead.maximumFields) trailer fields")
            }
            guard body.count + size <= maximumBodyBytes else { throw .tooLarge("a body over \(maximumBodyBytes) bytes") }
            body += try readExactly(size, step: "a chunk")
            guard try readLine().isEmpty else { throw .malformedResponse("a chunk longer than its size") }
        }
        throw .tooLarge("more than 100,000 chunks")
    }

    private mutating func readLine() throws(HTTPSError) -> [UInt8] {
        for _ in 0..<100_000 {
            if let newline = buffer[consumed...].firstIndex(of: UInt8(ascii: "\n")) {
                var line = Array(buffer[consumed..<newline])
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                consumed = newline + 1
                return line
            }
            guard buffer.count - consumed <= 4096 else { throw .malformedResponse("a chunk line over 4096 bytes") }
            guard try fill(step: "a chunk") else { throw .malformedResponse("the connection closed inside the chunked body") }
        }
        throw .malformedResponse("no end of a chunk line")
    }

    private mutating func readExactly(_ count: Int, step: String) throws(HTTPSError) -> [UInt8] {
        for _ in 0..<1_000_000 where buffer.count - consumed < count {
            guard try fill(step: step) else { throw .malformedResponse("the connection closed before \(step) ended") }
        }
        guard buffer.count - consumed >= count else { throw .malformedResponse("\(step) did not arrive whole") }
        defer { consumed += count }
        return Array(buffer[consumed..<(consumed + count)])
    }

    /// Reads more; false once the server closed the connection.
    private mutating func fill(step: String) throws(HTTPSError) -> Bool {
        if consumed > 0, consumed == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            consumed = 0
        }
        var chunk = [UInt8](repeating: 0, count: 16384)
        let count: Int
        do {
            count = try socket.read(into: &chunk, step: step, deadline: deadline)
        } catch {
            throw .socket(error)
        }
        guard count > 0 else {
            closed = true
            return false
        }
        buffer.append(contentsOf: chunk[..<count])
        return true
    }

    private func firstIndex(of pattern: [UInt8]) -> Int? {
        guard buffer.count - consumed >= pattern.count else { return nil }
        for start in consumed...(buffer.count - pattern.count) where buffer[start] == pattern[0] {
            if buffer[start..<(start + pattern.count)].elementsEqual(pattern) { return start }
        }
        return nil
    }
}
