import Glibc

/// Writing one shared chunk to the streams of this loop a broadcast names (see
/// `ResponseStream.broadcast`): straight from the shared buffer into each socket, with
/// no copy unless the socket cannot take it all at once.
extension EventLoop {
    func writeShared(_ chunk: SharedChunk, to targets: [StreamAttachment]) {
        for target in targets { writeShared(chunk, to: target) }
    }

    private func writeShared(_ chunk: SharedChunk, to target: StreamAttachment) {
        // The connection may have closed, or moved on to another response, since.
        guard let connection = connectionAt(target.fd), connection.id == target.connectionID,
              case .stream(let stream, let context)? = connection.responder, stream.attachment === target,
              !context.isHead else { return }
        let range = chunk.range(unframed: context.version == .http1_0)
        // A reader this far behind is dropped: its socket is full and more keeps coming.
        if connection.pendingOutput + range.count > stream.highWater { return close(connection) }
        guard connection.pendingOutput == 0 else {
            // Behind already: queued after the rest, as `streamReady` does.
            connection.output.append(contentsOf: chunk.framed[range])
            flush(connection)
            applyBackpressure(connection)
            return
        }
        let result: IOResult<Int>
        do {
            result = try chunk.framed.withUnsafeBytes { bytes in
                try syscall("send") { send(connection.fd, bytes.baseAddress! + range.lowerBound, range.count, Int32(MSG_NOSIGNAL)) }
            }
        } catch {
            return close(connection)  // EPIPE, ECONNRESET: the peer is gone
        }
        let written = if case .done(let count) = result { count } else { 0 }
        if written < range.count {
            connection.output.append(contentsOf: chunk.framed[(range.lowerBound + written)..<range.upperBound])
            handle(.sent(bytes: written, blocked: true, unreadInput: connection.unreadCount), on: connection)
            applyBackpressure(connection)
            return
        }
        // As `flush` ends: input parked behind the output is answered now.
        if handle(.sent(bytes: written, blocked: false, unreadInput: connection.unreadCount), on: connection) {
            process(connection)
            if connection.pendingOutput > 0 { return flush(connection) }
        }
        handle(.outputDrained, on: connection)
    }
}
