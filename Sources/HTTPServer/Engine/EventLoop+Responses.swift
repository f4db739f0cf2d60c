import Glibc

/// Queuing responses (whole, streamed or from a file) and writing them out; what follows
/// each (the next request, closing, the read/write interest) is the policy's answer.
extension EventLoop {
    func respond(_ connection: Connection, _ response: Response, context: ResponseWriter.Context, closing: Bool) {
        var context = context
        context.keepAlive = !closing && connection.policy.keepsAlive(context.keepAlive)
        if let observe = shared.configuration.requestObserver { observe(completed(response, context, on: connection)) }
        if case .stream(let stream) = response.body {
            // HTTP/1.0 has no chunked coding (RFC 9112 §7.1): the body ends with the connection.
            let chunked = context.version != .http1_0
            if !chunked { context.keepAlive = false }
            writer.writeHead(response, context: context, chunked: chunked, into: &connection.output)
            connection.responder = .stream(stream, context)
            handle(.responseUnderway, on: connection)
            stream.attach(to: self, fd: connection.fd, connectionID: connection.id)
            return
        }
        writer.writeHead(response, context: context, chunked: false, into: &connection.output)
        connection.responder = nil
        if case .file(let file) = response.body, !context.isHead, HTTPStatus.allowsBody(response.status), file.length > 0 {
            connection.responder = .file(file, offset: 0, context)
            handle(.responseUnderway, on: connection)
            readFilePieces(connection)
            return
        }
        handle(.responseQueued(keepAlive: context.keepAlive), on: connection)
    }

    private func completed(_ response: Response, _ context: ResponseWriter.Context, on connection: Connection) -> CompletedRequest {
        let bodyBytes: Int? = switch response.body {
        case .bytes(let bytes): HTTPStatus.allowsBody(response.status) && !context.isHead ? bytes.count : 0
        case .file(let file): HTTPStatus.allowsBody(response.status) && !context.isHead ? file.length : 0
        case .stream: nil
        }
        return CompletedRequest(
            method: context.method, route: context.route, status: response.status, bodyBytes: bodyBytes,
            nanoseconds: context.startedAt == 0 ? 0 : MonotonicClock.now() &- context.startedAt, requestID: context.requestID,
            remoteAddress: connection.remoteAddress, forwardedFor: context.forwardedFor, eventLoopIndex: index
        )
    }

    func respondAndClose(_ connection: Connection, problem: Problem, version: HTTPVersion, requestID: String? = nil) {
        let context = ResponseWriter.Context(version: version, isHead: false, keepAlive: false, requestID: requestID ?? makeRequestID())
        respond(connection, shared.response(to: problem), context: context, closing: true)
    }


    func streamReady(_ connection: Connection) {
        guard case .stream(let stream, let context)? = connection.responder else { return }
        let (chunks, finished, overflowed) = stream.take()
        // A reader this far behind is dropped: its socket is full and more keeps coming.
        if overflowed || connection.pendingOutput > stream.highWater { return close(connection) }
        if context.isHead {
            if !finished { return }
        } else if context.version == .http1_0 {
            for chunk in chunks { connection.output.append(contentsOf: chunk) }
        } else {
            for chunk in chunks { ResponseWriter.writeChunk(chunk, into: &connection.output) }
            if finished { connection.output.append(contentsOf: ResponseWriter.lastChunk) }
        }
        if finished {
            stream.close()
            connection.responder = nil
            handle(.responseQueued(keepAlive: context.keepAlive), on: connection)
            process(connection)  // requests pipelined behind the stream
        }
        flush(connection)
        applyBackpressure(connection)
    }

    /// Queues pieces of the file being sent until `FileBody.readAhead` bytes wait for the
    /// socket; when the whole file is queued, the connection goes on as after any response.
    func readFilePieces(_ connection: Connection) {
        guard case .file(let file, var offset, let context)? = connection.responder else { return }
        while offset < file.length, connection.pendingOutput < FileBody.readAhead {
            let read = file.read(at: offset, count: min(FileBody.pieceSize, file.length - offset), into: &connection.output)
            guard read > 0 else {
                // The file shrank or failed: the promised length cannot be kept.
                handle(.responseQueued(keepAlive: false), on: connection)
                return
            }
            offset += read
        }
        guard offset == file.length else {
            connection.responder = .file(file, offset: offset, context)
            return
        }
        connection.responder = nil
        handle(.responseQueued(keepAlive: context.keepAlive), on: connection)
    }

    // MARK: Writing

    func flush(_ connection: Connection) {
        guard !connection.isClosed else { return }
        var sent = 0
        while connection.pendingOutput > 0 {
            let result: IOResult<Int>
            do {
                result = try connection.output.withUnsafeBytes { bytes in
                    try syscall("send") {
                        send(connection.fd, bytes.baseAddress! + connection.outputStart, connection.pendingOutput, Int32(MSG_NOSIGNAL))
                    }
                }
            } catch {
                close(connection)  // EPIPE, ECONNRESET: the peer is gone
                return
            }
            switch result {
            case .done(let written):
                connection.outputStart += written
                sent += written
                if connection.pendingOutput == 0, case .file? = connection.responder {
                    connection.output.removeAll(keepingCapacity: true)
                    connection.outputStart = 0
                    readFilePieces(connection)
                }
            case .wouldBlock:
                handle(.sent(bytes: sent, blocked: true, unreadInput: connection.unreadCount), on: connection)
                applyBackpressure(connection)
                return
            }
        }
        connection.output = []
        connection.outputStart = 0
        if handle(.sent(bytes: sent, blocked: false, unreadInput: connection.unreadCount), on: connection) {
            process(connection)  // requests parked behind the high-water mark
            if connection.pendingOutput > 0 { return flush(connection) }
        }
        handle(.outputDrained, on: connection)
    }

    /// Reading follows what the connection holds (see `ConnectionPolicy.applyBackpressure`).
    func applyBackpressure(_ connection: Connection) {
        guard !connection.isClosed else { return }
        handle(.buffered(pendingOutput: connection.pendingOutput, unreadInput: connection.unreadCount), on: connection)
    }
}
