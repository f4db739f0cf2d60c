import Glibc

/// Carrying out what a connection's policy answers: the loop decides nothing about
/// keep-alive, pipelining, draining or timeouts itself (see `ConnectionPolicy`).
extension EventLoop {
    /// Feeds one event to the connection's policy and carries out its answer; true when
    /// the answer is to process the input, which only the caller knows how to do.
    /// Inlined at each event (see `ConnectionPolicy.handle`).
    @inline(__always) @discardableResult
    func handle(_ event: ConnectionPolicy.Event, on connection: Connection) -> Bool {
        guard !connection.isClosed else { return false }
        let actions = connection.policy.handle(event, now: now)
        if actions.interest != nil {
            updateInterest(connection)
            if connection.isClosed { return false }
        }
        switch actions.step {
        case .none:
            break
        case .processInput:
            return true
        case .respondAndClose:
            respondAndClose(connection, problem: .requestTimeout, version: .http1_1, requestID: connection.pending?.context.requestID)
            flush(connection)
        case .beginClosing:
            // The last response is queued: the rest of the input is dropped unread.
            connection.responder = nil
            connection.pending = nil
            connection.input = []
            connection.inputStart = 0
        case .shutDownWriting:
            _ = try? syscall("shutdown") { shutdown(connection.fd, Int32(SHUT_WR)) }
        case .close:
            close(connection)
        }
        return false
    }

    func updateInterest(_ connection: Connection) {
        guard !connection.isClosed else { return }
        do {
            try epoll.modify(connection.fd, interest: connection.policy.interest)
        } catch {
            close(connection)
        }
    }
}
