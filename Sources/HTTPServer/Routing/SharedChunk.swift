/// One piece of a streamed body written to many streams at once (an event every watcher
/// of a user gets): framed once, and shared read-only by every connection it goes to, so
/// a thousand streams cost one buffer, not a thousand copies.
public final class SharedChunk: Sendable {
    /// The bytes as given, for a stream not yet answering on a connection (it queues them).
    let bytes: [UInt8]
    /// `<size in hex>\r\n<bytes>\r\n`: the chunk as an HTTP/1.1 stream sends it.
    let framed: [UInt8]
    /// Where `bytes` sit inside `framed`: an HTTP/1.0 stream has no chunked coding and
    /// sends only these.
    let payload: Range<Int>

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var framed: [UInt8] = []
        framed.reserveCapacity(bytes.count + 20)
        ResponseWriter.writeChunk(bytes, into: &framed)
        self.framed = framed
        let start = framed.count - bytes.count - 2
        payload = start..<(start + bytes.count)
    }

    /// What a stream of `version` sends.
    func range(unframed: Bool) -> Range<Int> {
        unframed ? payload : 0..<framed.count
    }
}
