extension ResponseStream {
    /// Writes `chunk` to every stream of `streams` without a lock, a job or a copy per
    /// stream: the streams answering on a connection are grouped by event loop, and each
    /// loop gets one job listing its own, which writes the one shared buffer to each socket
    /// in turn (a reader past its high-water mark is dropped there, as by `write`). A
    /// stream not yet answering on a connection queues the bytes behind what it holds.
    ///
    /// Ordering per stream holds for changes broadcast from one thread: a stream becomes
    /// visible to this only after the job taking its queued chunks is posted (`attach`),
    /// and each loop runs its jobs in the order they were posted.
    public static func broadcast(_ chunk: SharedChunk, to streams: [ResponseStream]) {
        var groups: [(loop: EventLoop, targets: [StreamAttachment])] = []
        for stream in streams {
            guard let attachment = stream.attachment else {
                stream.write(chunk.bytes)
                continue
            }
            if let index = groups.firstIndex(where: { $0.loop === attachment.loop }) {
                groups[index].targets.append(attachment)
            } else {
                var targets: [StreamAttachment] = []
                targets.reserveCapacity(streams.count)
                targets.append(attachment)
                groups.append((attachment.loop, targets))
            }
        }
        for group in groups { group.loop.post(.broadcast(chunk, group.targets)) }
    }
}

/// Where an attached stream is written: the loop and the connection it answers on.
final class StreamAttachment: Sendable {
    let loop: EventLoop
    let fd: Int32
    let connectionID: UInt64

    init(loop: EventLoop, fd: Int32, connectionID: UInt64) {
        self.loop = loop
        self.fd = fd
        self.connectionID = connectionID
    }
}
