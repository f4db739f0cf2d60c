import Glibc

/// Queuing responses (whole or streamed), writing them out, and the read/write interest
/// that follows from what is pending.
extension EventLoop {
    func respond(_ connection: Connection, _ response: Response, context: ResponseWriter.Context, closing: Bool) {
        var context = context
        if closing || connection.peerClosed || draining { context.keepAlive = false }
        if case .stream(let stream) = response.body {
            // HTTP/1.0 has no chunked coding (RFC 9112 §7.1): the body ends with the connection.
            let chunked = context.version != .http1_0
            if !chunked { context.keepAlive = false }
            writer.writeHead(response, context: context, chunked: chunked, into: &connection.output)
            connection.phase = .streaming(stream, context)
            connection.deadline = 0
            let (fd, id) = (connection.fd, connection.id)
            stream.attach { [self] in post(.streamReady(fd: fd, connectionID: id)) }
            return
        }
        writer.writeHead(response, context: context, chunked: false, into: &connection.output)
        if context.keepAlive {
            connection.phase = .idle
            connection.deadline = now + shared.configuration.idleTimeout.nanoseconds
        } else {
            beginClosing(connection)
        }
    }

    func respondAndClose(_ connection: Connection, problem: Problem, version: HTTPVersion, requestID: String? = nil) {
        let context = ResponseWriter.Context(version: version, isHead: false, keepAlive: false, requestID: requestID ?? makeRequestID())
        respond(connection, problem.response(), context: context, closing: true)
    }

    /// The last response is queued: drain input from now on, and close once it is written.
    func beginClosing(_ connection: Connection) {
        connection.phase = .closing
        connection.deadline = now + Self.lingerTime
        connection.input = []
        connection.inputStart = 0
        if connection.readPaused {
            connection.readPaused = false
            updateInterest(connection)
        }
    }

    func streamReady(_ connection: Connection) {
        guard case .streaming(let stream, let context) = connection.phase else { return }
        let (chunks, finished) = stream.take()
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
            if context.keepAlive && !draining && !connection.peerClosed {
                connection.phase = .idle
                connection.deadline = now + shared.configuration.idleTimeout.nanoseconds
                process(connection)
            } else {
                beginClosing(connection)
            }
        }
        flush(connection)
        applyBackpressure(connection)
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
            case .wouldBlock:
                connection.writeDeadline = deadlines.write(current: connection.writeDeadline, now: now, sent: sent, blocked: true)
                if !connection.wantsWrite {
                    connection.wantsWrite = true
                    updateInterest(connection)
                }
                applyBackpressure(connection)
                return
            }
        }
        connection.output = []
        connection.outputStart = 0
        connection.writeDeadline = 0
        // Input parked behind the high-water mark waits for this moment even when the
        // output drained without ever blocking; no read event will come for it.
        let parked = connection.wantsWrite || connection.unreadCount > 0
        if connection.wantsWrite {
            connection.wantsWrite = false
            updateInterest(connection)
        }
        if parked {
            process(connection)  // requests parked behind the high-water mark
            if connection.pendingOutput > 0 { return flush(connection) }
        }
        if case .closing = connection.phase {
            if connection.peerClosed {
                close(connection)
            } else {
                shutdown(connection.fd, Int32(SHUT_WR))
            }
        }
    }

    /// Reading stops while a connection holds more than it may, in whatever phase: queued
    /// output past the high-water mark (a peer that sends requests and never reads the
    /// answers) or unread input past its cap (requests parked behind a busy handler, a
    /// stream, or that output). It resumes once both have drained; the kernel's buffers,
    /// then the peer's own sends, take the back-pressure meanwhile.
    func applyBackpressure(_ connection: Connection) {
        guard connectionAt(connection.fd) === connection else { return }  // closed meanwhile
        if case .closing = connection.phase { return }  // input is drained and dropped
        if connection.pendingOutput >= Self.outputHighWater || connection.unreadCount > Self.parkedInputLimit {
            pauseReading(connection)
        } else {
            resumeReading(connection)
        }
    }

    func pauseReading(_ connection: Connection) {
        guard !connection.readPaused else { return }
        connection.readPaused = true
        updateInterest(connection)
    }

    func resumeReading(_ connection: Connection) {
        guard connection.readPaused, !connection.peerClosed else { return }
        connection.readPaused = false
        updateInterest(connection)
    }

    func updateInterest(_ connection: Connection) {
        guard !connection.isClosed else { return }
        var interest: UInt32 = connection.readPaused ? 0 : Epoll.readInterest
        if connection.wantsWrite { interest |= Epoll.writeInterest }
        do {
            try epoll.modify(connection.fd, interest: interest)
        } catch {
            close(connection)
        }
    }
}
