import CPostgreSQL

extension Connection {
    /// Starts listening on `channel` (quoted, so any name works). Notifications sent while
    /// this connection is inside a transaction of its own arrive after it ends.
    public func listen(_ channel: String) throws(PostgreSQLError) {
        try execute("LISTEN " + Self.quotedIdentifier(channel))
    }

    public func unlisten(_ channel: String) throws(PostgreSQLError) {
        try execute("UNLISTEN " + Self.quotedIdentifier(channel))
    }

    /// Sends `payload` to every session listening on `channel`; inside a transaction it is
    /// delivered at COMMIT (and dropped by ROLLBACK). pg_notify binds both, so neither is
    /// ever spliced into SQL.
    public func notify(channel: String, payload: String = "") throws(PostgreSQLError) {
        try run("SELECT pg_notify(?, ?)", channel, payload)
    }

    /// The session's socket, for a caller's own poll or epoll loop: readable means call
    /// `notifications()`.
    public var socketDescriptor: Int32 {
        libpq.PQsocket(open)
    }

    /// The notifications that have arrived, without waiting: reads what the socket holds
    /// (PQconsumeInput), then takes every queued notification.
    public func notifications() throws(PostgreSQLError) -> [Notification] {
        guard libpq.PQconsumeInput(open) == 1 else {
            throw PostgreSQLError(clientFailureOn: pointer)
        }
        var received: [Notification] = []
        // Bounded: what is left stays queued for the next call.
        for _ in 0..<10_000 {
            guard let notify = libpq.PQnotifies(open) else { break }
            received.append(Notification(
                channel: String(cString: notify.pointee.relname),
                payload: String(cString: notify.pointee.extra),
                processID: notify.pointee.be_pid
            ))
            libpq.PQfreemem(notify)
        }
        return received
    }

    /// Waits up to `timeoutMilliseconds` for at least one notification; returns what has
    /// arrived, or `[]` when the time ran out.
    public func waitForNotifications(timeoutMilliseconds: Int) throws(PostgreSQLError) -> [Notification] {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(max(0, timeoutMilliseconds)))
        var received = try notifications()
        // Bounded by the deadline: every pass waits in poll() for what is left of it.
        while received.isEmpty, try waitReadable(before: deadline) {
            received = try notifications()
        }
        return received
    }

    /// Waits in poll() until the socket is readable (or reports an error, which reading
    /// then surfaces) or `deadline` has passed; false when the time ran out first.
    private func waitReadable(before deadline: ContinuousClock.Instant) throws(PostgreSQLError) -> Bool {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return false }
        let (seconds, attoseconds) = remaining.components
        let milliseconds = Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
        let ready = cpostgresql_wait_readable(socketDescriptor, max(1, milliseconds))
        if ready < 0 && -ready != CPOSTGRESQL_EINTR {
            throw PostgreSQLError.connectionLost(message: "poll() on the connection's socket failed (errno \(-ready))")
        }
        return true
    }

    /// `"name"` with embedded quotes doubled, PostgreSQL's quoting of an identifier.
    static func quotedIdentifier(_ name: String) -> String {
        precondition(!name.utf8.contains(0), "an identifier cannot contain NUL")
        return "\"" + name.replacing("\"", with: "\"\"") + "\""
    }
}

extension Connection {
    /// A round trip to the server (`SELECT 1`) that must be answered within
    /// `timeoutMilliseconds`. A connection that only listens sends nothing, so a peer that
    /// is gone, or a link that swallows what is sent, would look like a quiet channel for
    /// ever; this is how a listener finds out. Throws `connectionLost` when no answer came
    /// in time: the connection is then mid-query and must be closed, not used again.
    public func ping(timeoutMilliseconds: Int) throws(PostgreSQLError) {
        guard libpq.PQsendQuery(open, "SELECT 1") == 1 else { throw PostgreSQLError(clientFailureOn: pointer) }
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(max(0, timeoutMilliseconds)))
        // Bounded by the deadline: every pass waits in poll() for what is left of it.
        while libpq.PQisBusy(open) == 1 {
            guard try waitReadable(before: deadline) else {
                throw PostgreSQLError.connectionLost(message: "no answer to a ping within \(timeoutMilliseconds) ms")
            }
            guard libpq.PQconsumeInput(open) == 1 else { throw PostgreSQLError(clientFailureOn: pointer) }
        }
        // One result for the one statement, then the end; bounded all the same.
        var failure: PostgreSQLError?
        for _ in 0..<8 {
            guard let result = libpq.PQgetResult(open) else { break }
            if failure == nil, libpq.PQresultStatus(result) != PGRES_TUPLES_OK { failure = PostgreSQLError(clientFailureOn: pointer) }
            libpq.PQclear(result)
        }
        if let failure { throw failure }
    }
}
