import Glibc
import Logging
import Synchronization

/// Work handed to a loop from other threads.
enum LoopJob: Sendable {
    case response(fd: Int32, connectionID: UInt64, Response)
    /// A response the loop itself builds (see `ResponseSink.respond(building:)`).
    case build(fd: Int32, connectionID: UInt64, @Sendable () -> Response)
    case streamReady(fd: Int32, connectionID: UInt64)
    /// One chunk for many streams of this loop (see `ResponseStream.broadcast`).
    case broadcast(SharedChunk, [StreamAttachment])
    /// A connection another loop accepted and admitted, for this loop to serve (`LoopRoster`).
    case adopt(fd: Int32, address: String, capped: Bool)
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
    let shared: ServerShared
    let listener: Int32
    let epoll: Epoll
    let wakeup: Wakeup
    /// Jobs from other threads; `closed` once the loop has ended, so a late post (a
    /// handler finishing after shutdown) never signals an eventfd number reused since.
    private let inbox = Mutex<(jobs: [LoopJob], closed: Bool)>(([], false))
    /// Posts that found the inbox empty and have yet to signal `wakeup` (they do it after
    /// the lock): the loop closes the eventfd only once none is left.
    private let signalsInFlight = Atomic<Int>(0)
    /// The array `runJobs` swaps with the inbox's, kept with its capacity, so neither side
    /// allocates under the lock.
    private var spareJobs: [LoopJob] = []

    var connections: [Connection?] = []
    /// Connections this loop serves or has been handed and not yet taken (`LoopRoster`);
    /// read by the other loops, and by this one to know when a drain is over.
    let heldConnections = Atomic<Int>(0)
    private var nextConnectionID: UInt64 = 0
    var writer = ResponseWriter()
    let deadlines: ConnectionDeadlines
    let readBuffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 * 1024)
    private var requestIDs: RequestIDs
    var now: UInt64 = MonotonicClock.now()
    private var nextSweep: UInt64 = 0
    private var acceptPausedUntil: UInt64 = 0
    var draining = false
    private var drainDeadline: UInt64 = 0

    private static let sweepInterval: UInt64 = 100_000_000

    init(index: Int, listener: Int32, shared: ServerShared) throws(IOError) {
        self.index = index
        self.listener = listener
        self.shared = shared
        deadlines = ConnectionDeadlines(shared.configuration)
        epoll = try Epoll()
        wakeup = try Wakeup()
        requestIDs = RequestIDs(loopIndex: index)
        try epoll.add(listener, interest: Epoll.exclusiveReadInterest)
        try epoll.add(wakeup.fd, interest: Epoll.readInterest)
    }

    /// Only the job that finds the inbox empty signals: the loop drains the eventfd before
    /// it takes the jobs, so it takes every job posted before a signal it consumed. Under
    /// load, one write to the eventfd then wakes the loop for a whole batch of answers.
    ///
    /// The signal is written after the lock is let go: the loop it wakes takes the lock at
    /// once, and while the write was still under it, that was a futex wait and a wake on
    /// both sides (at 64 connections, most of a refresh's futex calls, the database writer
    /// posting a batch's answers against the loop taking them). `signalsInFlight` keeps
    /// the eventfd open until such a write is done.
    /// False when the loop has ended and the job was dropped.
    @discardableResult
    func post(_ job: LoopJob) -> Bool {
        let (posted, signal) = inbox.withLock { inbox -> (Bool, Bool) in
            guard !inbox.closed else { return (false, false) }
            inbox.jobs.append(job)
            guard inbox.jobs.count == 1 else { return (true, false) }
            // Under the lock, so a loop that closes after this post sees it in flight.
            signalsInFlight.add(1, ordering: .relaxed)
            return (true, true)
        }
        guard signal else { return posted }
        wakeup.signal()
        signalsInFlight.subtract(1, ordering: .releasing)
        return true
    }

    func run() {
        while !(draining && (heldConnections.load(ordering: .relaxed) == 0 || now >= drainDeadline)) {
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
                        if event.writable {
                            flush(connection)
                            applyBackpressure(connection)
                        }
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
        let unserved = inbox.withLock { inbox in
            inbox.closed = true
            defer { inbox.jobs.removeAll() }
            return inbox.jobs
        }
        for case .adopt(let fd, let address, let capped) in unserved { release(fd, address: address, capped: capped) }
        // A post that found the inbox empty before it closed may still be writing its signal.
        while signalsInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
        wakeup.close()
        readBuffer.deallocate()
    }

    func connectionAt(_ fd: Int32) -> Connection? {
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
            let capped = !shared.uncappedAddresses.contains(PeerAddress.canonical(address))
            if capped, !shared.addressConnections.admit(PeerAddress.limitKey(address)) {
                refuse(fd)
                continue
            }
            let target = shared.roster.assign(from: self)
            if target === self {
                serve(fd, address: address, capped: capped)
            } else if !target.post(.adopt(fd: fd, address: address, capped: capped)) {
                target.release(fd, address: address, capped: capped)
            }
        }
    }

    /// Serves an accepted, admitted connection here (assigned to this loop by `LoopRoster`).
    private func serve(_ fd: Int32, address: String, capped: Bool) {
        guard !draining else { return release(fd, address: address, capped: capped) }
        nextConnectionID += 1
        let connection = Connection(
            fd: fd, id: nextConnectionID, remoteAddress: address, limits: shared.configuration.headLimits,
            policy: ConnectionPolicy(rules: deadlines, now: now)
        )
        connection.countedPerAddress = capped
        do {
            try epoll.add(fd, interest: Epoll.readInterest)
        } catch {
            return release(fd, address: address, capped: capped)
        }
        if Int(fd) >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: max(Int(fd) + 1 - connections.count, connections.count)))
        }
        connections[Int(fd)] = connection
    }

    /// Closes a connection assigned to this loop that it will not serve, and gives back
    /// what admitting it counted.
    private func release(_ fd: Int32, address: String, capped: Bool) {
        heldConnections.subtract(1, ordering: .relaxed)
        shared.openConnections.subtract(1, ordering: .relaxed)
        if capped { shared.addressConnections.release(PeerAddress.limitKey(address)) }
        closeDescriptor(fd)
    }

    /// Over the connection cap: a short 503 instead of a silent reset or an endless queue.
    private func refuse(_ fd: Int32) {
        shared.openConnections.subtract(1, ordering: .relaxed)
        var output: [UInt8] = []
        let context = ResponseWriter.Context(version: .http1_1, isHead: false, keepAlive: false, requestID: makeRequestID())
        writer.writeHead(shared.response(to: .tooManyConnections, adding: [HTTPField(name: "Retry-After", value: "1")]), context: context, chunked: false, into: &output)
        // Best effort, each step: the peer may already be gone.
        _ = try? output.withUnsafeBytes { bytes throws(IOError) in
            try syscall("send") { send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
        }
        _ = try? syscall("shutdown") { shutdown(fd, Int32(SHUT_WR)) }
        _ = try? syscall("recv") { recv(fd, readBuffer.baseAddress, readBuffer.count, Int32(MSG_DONTWAIT)) }
        closeDescriptor(fd)
    }

    // MARK: Jobs, timers, closing

    func runJobs() {
        var jobs = spareJobs
        spareJobs = []
        inbox.withLock { swap(&jobs, &$0.jobs) }
        defer {
            jobs.removeAll(keepingCapacity: true)
            spareJobs = jobs
        }
        for job in jobs {
            switch job {
            case .response(let fd, let id, let response):
                deliver(response, fd: fd, connectionID: id)
            case .build(let fd, let id, let make):
                guard let connection = connectionAt(fd), connection.id == id else { continue }
                deliver(make(), fd: fd, connectionID: id)
            case .streamReady(let fd, let id):
                guard let connection = connectionAt(fd), connection.id == id else { continue }
                streamReady(connection)
            case .broadcast(let chunk, let targets):
                writeShared(chunk, to: targets)
            case .adopt(let fd, let address, let capped):
                serve(fd, address: address, capped: capped)
            case .shutdown:
                startDraining()
            }
        }
    }

    /// Writes a handler's late answer, if its connection is still waiting for it.
    private func deliver(_ response: Response, fd: Int32, connectionID: UInt64) {
        guard let connection = connectionAt(fd), connection.id == connectionID,
              case .handler(let context)? = connection.responder else {
            // The client left while the handler ran: a stream it opened (a presence
            // stream answered from another thread) is closed, so its close handlers run.
            if case .stream(let stream) = response.body { stream.close() }
            return
        }
        respond(connection, response, context: context, closing: false)
        process(connection)
        flush(connection)
        applyBackpressure(connection)
    }

    func startDraining() {
        guard !draining else { return }
        draining = true
        drainDeadline = now + shared.configuration.shutdownGracePeriod.nanoseconds
        epoll.remove(listener)
        shared.loopsReleasingListener.subtract(1, ordering: .releasing)
        for case let connection? in connections {
            if case .stream(let stream, _)? = connection.responder { stream.finish() }
            handle(.serverDraining(pendingOutput: connection.pendingOutput), on: connection)
        }
    }

    func sweep() {
        if acceptPausedUntil != 0, now >= acceptPausedUntil, !draining {
            acceptPausedUntil = 0
            try? epoll.add(listener, interest: Epoll.exclusiveReadInterest)
        }
        for case let connection? in connections { handle(.tick, on: connection) }
    }

    func close(_ connection: Connection) {
        guard !connection.isClosed, connectionAt(connection.fd) === connection else { return }
        connection.isClosed = true
        if case .stream(let stream, _)? = connection.responder { stream.close() }
        epoll.remove(connection.fd)
        closeDescriptor(connection.fd)
        connections[Int(connection.fd)] = nil
        heldConnections.subtract(1, ordering: .relaxed)
        shared.openConnections.subtract(1, ordering: .relaxed)
        if connection.countedPerAddress { shared.addressConnections.release(PeerAddress.limitKey(connection.remoteAddress)) }
    }

    // MARK: Request ids

    func makeRequestID() -> String {
        requestIDs.next()
    }

    /// A client's id is echoed only when it is short and plain, so it cannot forge log lines.
    static func saneRequestID(_ value: String?) -> String? {
        guard let value, (1...128).contains(value.utf8.count),
              value.utf8.allSatisfy({ ASCII.isTokenCharacter($0) || $0 == ASCII.colon || $0 == UInt8(ascii: "/") }) else { return nil }
        return value
    }
}
