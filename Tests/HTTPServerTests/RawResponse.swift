@testable import HTTPServer

/// One response as it came off the wire.
struct RawResponse: Sendable {
    var status: Int
    var fields: [HTTPField]
    var body: [UInt8]
    /// The chunks of a chunked body, in order; nil when the body was not chunked.
    var chunks: [[UInt8]]?

    var text: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        fields.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The fields the engine adds to every response.
    var carriesEngineFields: Bool {
        (header("X-Request-Id").map { !$0.isEmpty } ?? false) && header("X-Content-Type-Options") == "nosniff"
    }

    var isProblem: Bool { header("Content-Type") == "application/problem+json" }
}

enum ClientError: Error, Equatable {
    case connectFailed(errno: Int32)
    case sendFailed(errno: Int32)
    case receiveFailed(errno: Int32)
    case timedOut
    case closedBeforeResponse
    case malformedResponse(String)
}

/// A strict enough HTTP/1.1 response parser for checking what the engine writes.
enum RawResponseParser {
    /// Nil while the buffered bytes hold no whole response yet.
    static func parse(_ bytes: [UInt8], bodyless: Bool, peerClosed: Bool) throws(ClientError) -> (RawResponse, consumed: Int)? {
        guard let (status, fields, headEnd) = try parseHead(bytes) else { return nil }
        var response = RawResponse(status: status, fields: fields, body: [], chunks: nil)
        if bodyless || status < 200 || status == 204 || status == 304 {
            return (response, headEnd)
        }
        if let coding = response.header("Transfer-Encoding") {
            guard coding == "chunked" else { throw .malformedResponse("transfer coding \(coding)") }
            guard let (chunks, end) = try parseChunks(bytes, from: headEnd) else { return nil }
            response.chunks = chunks
            response.body = chunks.flatMap { $0 }
            return (response, end)
        }
        if let lengthText = response.header("Content-Length") {
            guard let length = Int(lengthText) else { throw .malformedResponse("Content-Length \(lengthText)") }
            guard bytes.count - headEnd >= length else { return nil }
            response.body = Array(bytes[headEnd..<headEnd + length])
            return (response, headEnd + length)
        }
        guard peerClosed else { return nil }
        response.body = Array(bytes[headEnd...])
        return (response, bytes.count)
    }

    /// Status, fields and the offset after the empty line.
    static func parseHead(_ bytes: [UInt8]) throws(ClientError) -> (Int, [HTTPField], Int)? {
        guard let end = find(Array("\r\n\r\n".utf8), in: bytes, from: 0) else { return nil }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).split(separator: "\r\n" as Character, omittingEmptySubsequences: false)
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let status = Int(statusParts[1]) else {
            throw .malformedResponse("status line \(lines[0])")
        }
        var fields: [HTTPField] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw .malformedResponse("field line \(line)") }
            fields.append(HTTPField(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return (status, fields, end + 4)
    }

    private static func parseChunks(_ bytes: [UInt8], from start: Int) throws(ClientError) -> ([[UInt8]], Int)? {
        var chunks: [[UInt8]] = []
        var index = start
        while true {
            guard let lineEnd = find([13, 10], in: bytes, from: index) else { return nil }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).prefix { $0 != ";" }
            guard let size = Int(sizeText, radix: 16) else { throw .malformedResponse("chunk size \(sizeText)") }
            index = lineEnd + 2
            if size == 0 {
                guard let trailerEnd = find([13, 10], in: bytes, from: index) else { return nil }
                guard trailerEnd == index else { throw .malformedResponse("trailer fields") }
                return (chunks, trailerEnd + 2)
            }
            guard bytes.count >= index + size + 2 else { return nil }
            guard bytes[index + size] == 13, bytes[index + size + 1] == 10 else { throw .malformedResponse("chunk without CRLF") }
            chunks.append(Array(bytes[index..<index + size]))
            index += size + 2
        }
    }

    private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        var index = start
        while index + needle.count <= bytes.count {
            if bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
