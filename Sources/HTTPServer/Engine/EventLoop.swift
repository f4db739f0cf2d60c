import Glibc
import Logging
import Synchronization

/// Work handed to a loop from other threads.
enum LoopJob: Sendable {
    case response(fd: Int32, connectionID: UInt64, Response)
    case streamReady(fd: Int32, connectionID: UInt64)
    case shutdown
}

/// One epoll loop on its own thread: it accepts (from the listener all loops share),
/// reads, parses, runs inline handlers and writes, and never waits on anything slow.
///
/// `@unchecked Sendable`: every stored property except `inbox` (behind its Mutex) and
/// `wakeup` (an eventfd, safe to signal from any thread) is touched only on the loop's own
/// thread, inside `run()`.
final class EventLoop: @unchecked Sendable {
    let index: Int
    private let shared: ServerShared
    private let listener: Int32
    private let epoll: Epoll
    let wakeup: Wakeup
    private let inbox = Mutex<[LoopJob]>([])

    private var connections: [Connection?] = []
    private var connectionCount = 0
    private var nextConnectionID: UInt64 = 0
    private var writer = ResponseWriter()
    private let readBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 * 1024)
    private var requestCounter: UInt64 = 0
    private let requestIDPrefix: String
    private var now: UInt64 = MonotonicClock.now()
    private var nextSweep: UInt64 = 0
    private var acceptPausedUntil: UInt64 = 0
    private var draining = false
    private var drainDeadline: UInt64 = 0

    private static let sweepInterval: UInt64 = 100_000_000
    private static let lingerTime: UInt64 = 2_000_000_000
    /// Stop parsing pipelined requests while this much output waits for a slow reader.
    private static let outputHighWater = 1 << 20
    /// Pipelined input parked behind a busy handler or stream, before reading pauses.
    private static let parkedInputLimit = 64 * 1024

    init(index: Int, listener: Int32, shared: ServerShared) throws(IOError) {
        self.index = index
        self.listener = listener
        self.shared = shared
        epoll = try Epoll()
        wakeup = try Wakeup()
        requestIDPrefix = String(UInt32.random(in: 0x1000_0000...UInt32.max), radix: 16) + "-\(index)-"
        try epoll.add(listener, interest: Epoll.exclusiveReadInterest)
        try epoll.add(wakeup.fd, interest: Epoll.readInterest)
    }

    func post(_ job: LoopJob) {
        inbox.withLock { $0.append(job) }
        wakeup.signal()
    }

    func run() {
        while !(draining && (connectionCount == 0 || now >= drainDeadline)) {
            do {
                // The clock is read when the loop wakes, so deadlines set while handling
                // these events start from now, not from before the wait.
                try epoll.wait(timeoutMilliseconds: 100, woke: { now = MonotonicClock.now() }) { event in
                    if event.fd == listener {
                        acceptConnections()
                    } else if event.fd == wakeup.fd {
                        wakeup.drain()
                        runJobs()
                    } else if let connection = connectionAt(event.fd) {
                        if event.writable { flush(connection) }
                        if event.readable, connectionAt(event.fd) === connection { readable(connection) }
                    }
                }
            } catch {
                shared.logger.error("event loop \(index) failed: \(error)")
                break
            }
            now = MonotonicClock.now()
            if now >= nextSweep {
                sweep()
                nextSweep = now + Self.sweepInterval
            }
        }
        for case let connection? in connections { close(connection) }
        epoll.close()
        wakeup.close()
        readBuffer.deallocate()
    }

    private func connectionAt(_ fd: Int32) -> Connection? {
        Int(fd) < connections.count ? connections[Int(fd)] : nil
    }

    // MARK: Accepting

    private func acceptConnections() {
        guard !draining else { return }
        for _ in 0..<256 {
            let accepted: (fd: Int32, address: String)?
            do {
                accepted = try Socket.accept(listener)
            } catch where error.errno == EMFILE || error.errno == ENFILE || error.errno == ENOBUFS || error.errno == ENOMEM {
                // Out of descriptors: stop accepting for a moment instead of spinning on a
                // listener that stays readable.
                shared.logger.warning("cannot accept connections: \(error); pausing accept for 100 ms")
                epoll.remove(listener)
                acceptPausedUntil = now + 100_000_000
                return
            } catch {
                continue  // ECONNABORTED and the like: that peer is gone, the next may not be
            }
            guard let (fd, address) = accepted else { return }
            guard shared.openConnections.add(1, ordering: .relaxed).newValue <= shared.configuration.maxConnections else {
                refuse(fd)
                continue
            }
            nextConnectionID += 1
            let connection = Connection(fd: fd, id: nextConnectionID, remoteAddress: address, limits: shared.configuration.headLimits)
            connection.deadline = now + shared.configuration.idleTimeout.nanoseconds
            do {
                try epoll.add(fd, interest: Epoll.readInterest)
            } catch {
                shared.openConnections.subtract(1, ordering: .relaxed)
                closeDescriptor(fd)
                continue
            }
            if Int(fd) >= connections.count {
                connections.append(contentsOf: repeatElement(nil, count: max(Int(fd) + 1 - connections.count, connections.count)))
            }
            connections[Int(fd)] = connection
            connectionCount += 1
        }
    }

    /// Over the connection cap: a short 503 instead of a silent reset or an endless queue.
    private func refuse(_ fd: Int32) {
        shared.openConnections.subtract(1, ordering: .relaxed)
        var output: [UInt8] = []
        let context = ResponseWriter.Context(version: .http1_1, isHead: false, keepAlive: false, requestID: makeRequestID())
        writer.writeHead(Problem.tooManyConnections.response(headers: [HTTPField(name: "Retry-After", value: "1")]), context: context, chunked: false, into: &output)
        _ = output.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        _ = recv(fd, readBuffer.baseAddress, readBuffer.count, Int32(MSG_DONTWAIT))
        closeDescriptor(fd)
    }

    // MARK: Reading and parsing

    private func readable(_ connection: Connection) {
        let result: IOResult<Int>
        do {
            result = try syscall("read") { Glibc.read(connection.fd, readBuffer.baseAddress, readBuffer.count) }
        } catch {
            close(connection)
            return
        }
        guard case .done(let count) = result else { return }
        if case .closing = connection.phase {
            if count == 0 { close(connection) }
            return
        }
        if count == 0 {
            connection.peerClosed = true
            if connection.isStreaming || connection.pendingOutput == 0 && connection.unreadCount == 0 && isBetweenRequests(connection) {
                close(connection)
                return
            }
            pauseReading(connection)
        } else {
            connection.appendInput(UnsafeBufferPointer(rebasing: readBuffer[0..<count]))
            if connection.isWaitingOnResponse, connection.unreadCount > Self.parkedInputLimit { pauseReading(connection) }
        }
        process(connection)
        flush(connection)
    }

    private func isBetweenRequests(_ connection: Connection) -> Bool {
        switch connection.phase {
        case .idle, .head: true
        default: false
        }
    }

    /// Parses and answers as many buffered requests as it can, in order.
    private func process(_ connection: Connection) {
        while connection.pendingOutput < Self.outputHighWater {
            switch connection.phase {
            case .idle, .head:
                // Empty lines between requests are ignored (RFC 9112 §2.2); they must not
                // start the header timer, or an idle client gets an unsolicited 408.
                while case .idle = connection.phase, connection.unreadCount >= 2,
                      connection.input[connection.inputStart] == ASCII.cr, connection.input[connection.inputStart + 1] == ASCII.lf {
                    connection.consumeInput(2)
                }
                guard connection.unreadCount > 0 else {
                    if connection.peerClosed { beginClosing(connection) }
                    return
                }
                if case .idle = connection.phase {
                    connection.phase = .head
                    connection.deadline = now + shared.configuration.headerTimeout.nanoseconds
                }
                let result = connection.input.withUnsafeBufferPointer { buffer in
                    connection.parser.parse(UnsafeBufferPointer(rebasing: buffer[connection.inputStart...]))
                }
                switch result {
                case .incomplete:
                    if connection.peerClosed { beginClosing(connection) }
                    return
                case .failure(let error):
                    connection.parser.reset()
                    respondAndClose(connection, problem: Self.problem(for: error), version: .http1_1)
                    return
                case .complete(let head, let consumed):
                    connection.parser.reset()
                    connection.consumeInput(consumed)
                    begin(head, on: connection)
                }
            case .body:
                guard readBody(connection), let pending = connection.pending else { return }
                connection.pending = nil
                dispatch(pending, on: connection)
            case .handling, .streaming, .closing:
                return
            }
        }
    }

    private static func problem(for error: HeadParseError) -> Problem {
        switch error {
        case .badRequest(let reason): .badRequest(reason)
        case .requestLineTooLong: .uriTooLong
        case .headerSectionTooLarge: .headerFieldsTooLarge
        case .versionNotSupported: .versionNotSupported
        }
    }

    /// Validates framing, routes, and applies the route's body limit before any body byte is read.
    private func begin(_ head: RequestHead, on connection: Connection) {
        let requestID = Self.saneRequestID(head.field("x-request-id")) ?? makeRequestID()
        let framing: BodyFraming
        switch head.bodyFraming() {
        case .success(let value): framing = value
        case .failure(.badRequest(let reason)):
            return respondAndClose(connection, problem: .badRequest(reason), version: head.version, requestID: requestID)
        case .failure(.unsupportedTransferCoding):
            return respondAndClose(connection, problem: .notImplemented, version: head.version, requestID: requestID)
        }
        let hasBody = framing != .none
        let keepAlive = head.wantsKeepAlive && !draining
        let context = ResponseWriter.Context(version: head.version, isHead: head.method == "HEAD", keepAlive: keepAlive, requestID: requestID)

        if head.hasUnsupportedExpectation {
            return respond(connection, Problem.expectationFailed.response(), context: context, closing: hasBody)
        }
        let target = RequestTarget.split(head.target)
        switch shared.router.match(method: head.method, path: target.path) {
        case .notFound:
            respond(connection, Problem.notFound.response(), context: context, closing: hasBody)
        case .methodNotAllowed(let allowed):
            let response = Problem.methodNotAllowed.response(headers: [HTTPField(name: "Allow", value: allowed.joined(separator: ", "))])
            respond(connection, response, context: context, closing: hasBody)
        case .found(let route, let parameters):
            var pending = Connection.PendingRequest(
                head: head, target: target, route: route, parameters: parameters, context: context, remaining: 0
            )
            switch framing {
            case .none:
                return dispatch(pending, on: connection)
            case .contentLength(let length):
                guard length <= route.bodyLimit else {
                    return respond(connection, Problem.payloadTooLarge.response(), context: context, closing: true)
                }
                pending.remaining = length
                pending.body.reserveCapacity(length)
            case .chunked:
                pending.chunked = ChunkedDecoder(limit: route.bodyLimit)
            }
            // Ask for the body only once the request is known to be acceptable (RFC 9110 §10.1.1).
            if head.expectsContinue, head.version == .http1_1, connection.unreadCount == 0 {
                connection.output.append(contentsOf: ResponseWriter.continueResponse)
            }
            connection.pending = pending
            connection.phase = .body
            connection.deadline = now + shared.configuration.bodyTimeout.nanoseconds
        }
    }

    /// Moves buffered body bytes into the pending request; true once the body is complete.
    /// The body grows in place inside the connection, so it is never copied per read.
    private func readBody(_ connection: Connection) -> Bool {
        guard var decoder = connection.pending?.chunked else {
            let take = min(connection.pending!.remaining, connection.unreadCount)
            connection.pending!.body.append(contentsOf: connection.input[connection.inputStart..<connection.inputStart + take])
            connection.pending!.remaining -= take
            connection.consumeInput(take)
            return connection.pending!.remaining == 0 || waitForBody(connection)
        }
        let result = connection.input.withUnsafeBufferPointer { buffer in
            decoder.decode(UnsafeBufferPointer(rebasing: buffer[connection.inputStart...]), into: &connection.pending!.body)
        }
        connection.pending!.chunked = decoder
        switch result {
        case .needMore:
            connection.consumeInput(connection.unreadCount)
            return waitForBody(connection)
        case .done(let consumed):
            connection.consumeInput(consumed)
            return true
        case .failure(let failure):
            let pending = connection.pending!
            connection.pending = nil
            let problem: Problem = switch failure {
            case .tooLarge: .payloadTooLarge
            case .malformed(let reason): .badRequest(reason)
            }
            respondAndClose(connection, problem: problem, version: pending.head.version, requestID: pending.context.requestID)
            return false
        }
    }

    /// The body is incomplete: wait for more, or give up if the peer has stopped sending.
    private func waitForBody(_ connection: Connection) -> Bool {
        if connection.peerClosed {
            connection.pending = nil
            beginClosing(connection)
        } else {
            connection.deadline = now + shared.configuration.bodyTimeout.nanoseconds
        }
        return false
    }

    private func dispatch(_ pending: Connection.PendingRequest, on connection: Connection) {
        let request = Request(
            head: pending.head, target: pending.target, body: pending.body, pathParameters: pending.parameters,
            requestID: pending.context.requestID, remoteAddress: connection.remoteAddress, eventLoopIndex: index
        )
        let context = pending.context
        switch pending.route.handler {
        case .inline(let handler):
            let response: Response
            do {
                response = try handler(request)
            } catch {
                response = shared.errorResponder(error, request)
            }
            respond(connection, response, context: context, closing: false)
        case .offLoop(let handler):
            connection.phase = .handling(context)
            connection.deadline = 0
            let (fd, id, shared) = (connection.fd, connection.id, shared)
            Task.detached { [self] in
                let response: Response
                do {
                    response = try await handler(request)
                } catch {
                    response = shared.errorResponder(error, request)
                }
                post(.response(fd: fd, connectionID: id, response))
            }
        }
    }

    // MARK: Responding

    private func respond(_ connection: Connection, _ response: Response, context: ResponseWriter.Context, closing: Bool) {
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

    private func respondAndClose(_ connection: Connection, problem: Problem, version: HTTPVersion, requestID: String? = nil) {
        let context = ResponseWriter.Context(version: version, isHead: false, keepAlive: false, requestID: requestID ?? makeRequestID())
        respond(connection, problem.response(), context: context, closing: true)
    }

    /// The last response is queued: drain input from now on, and close once it is written.
    private func beginClosing(_ connection: Connection) {
        connection.phase = .closing
        connection.deadline = now + Self.lingerTime
        connection.input = []
        connection.inputStart = 0
        if connection.readPaused {
            connection.readPaused = false
            updateInterest(connection)
        }
    }

    private func streamReady(_ connection: Connection) {
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
                resumeReading(connection)
                process(connection)
            } else {
                beginClosing(connection)
            }
        }
        flush(connection)
    }

    // MARK: Writing

    private func flush(_ connection: Connection) {
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
            case .wouldBlock:
                if connection.writeDeadline == 0 { connection.writeDeadline = now + shared.configuration.writeTimeout.nanoseconds }
                if !connection.wantsWrite {
                    connection.wantsWrite = true
                    updateInterest(connection)
                }
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

    /// While a handler works, input stays in the buffer; past a bound, stop reading so a
    /// pipelining client cannot grow it without limit.
    private func pauseReading(_ connection: Connection) {
        guard !connection.readPaused else { return }
        connection.readPaused = true
        updateInterest(connection)
    }

    private func resumeReading(_ connection: Connection) {
        guard connection.readPaused, !connection.peerClosed else { return }
        connection.readPaused = false
        updateInterest(connection)
    }

    private func updateInterest(_ connection: Connection) {
        var interest: UInt32 = connection.readPaused ? 0 : Epoll.readInterest
        if connection.wantsWrite { interest |= Epoll.writeInterest }
        do {
            try epoll.modify(connection.fd, interest: interest)
        } catch {
            close(connection)
        }
    }

    // MARK: Jobs, timers, closing

    private func runJobs() {
        let jobs = inbox.withLock { jobs in
            defer { jobs.removeAll() }
            return jobs
        }
        for job in jobs {
            switch job {
            case .response(let fd, let id, let response):
                guard let connection = connectionAt(fd), connection.id == id,
                      case .handling(let context) = connection.phase else { continue }
                respond(connection, response, context: context, closing: false)
                resumeReading(connection)
                process(connection)
                flush(connection)
            case .streamReady(let fd, let id):
                guard let connection = connectionAt(fd), connection.id == id else { continue }
                streamReady(connection)
            case .shutdown:
                startDraining()
            }
        }
    }

    private func startDraining() {
        guard !draining else { return }
        draining = true
        drainDeadline = now + shared.configuration.shutdownGracePeriod.nanoseconds
        epoll.remove(listener)
        shared.loopsReleasingListener.subtract(1, ordering: .releasing)
        for case let connection? in connections {
            switch connection.phase {
            case .idle where connection.pendingOutput == 0:
                close(connection)
            case .idle:
                beginClosing(connection)  // its last response is still being written
            case .streaming(let stream, _):
                stream.finish()
            default:
                break
            }
        }
    }

    private func sweep() {
        if acceptPausedUntil != 0, now >= acceptPausedUntil, !draining {
            acceptPausedUntil = 0
            try? epoll.add(listener, interest: Epoll.exclusiveReadInterest)
        }
        for case let connection? in connections {
            if connection.writeDeadline != 0, now >= connection.writeDeadline {
                close(connection)
            } else if connection.deadline != 0, now >= connection.deadline {
                switch connection.phase {
                case .head, .body:
                    respondAndClose(connection, problem: .requestTimeout, version: .http1_1, requestID: connection.pending?.context.requestID)
                    flush(connection)
                default:
                    close(connection)
                }
            }
        }
    }

    private func close(_ connection: Connection) {
        guard connectionAt(connection.fd) === connection else { return }
        if case .streaming(let stream, _) = connection.phase { stream.close() }
        epoll.remove(connection.fd)
        closeDescriptor(connection.fd)
        connections[Int(connection.fd)] = nil
        connectionCount -= 1
        shared.openConnections.subtract(1, ordering: .relaxed)
    }

    // MARK: Request ids

    private func makeRequestID() -> String {
        requestCounter += 1
        return requestIDPrefix + String(requestCounter, radix: 16)
    }

    /// A client's id is echoed only when it is short and plain, so it cannot forge log lines.
    private static func saneRequestID(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.utf8.count),
              value.utf8.allSatisfy({ ASCII.isTokenCharacter($0) || $0 == ASCII.colon || $0 == UInt8(ascii: "/") }) else { return nil }
        return value
    }
}
