import CPostgreSQL

/// One PostgreSQL connection (one server session).
///
/// libpq lets one thread at a time use a connection, and the prepared-statement cache and
/// the last command's `changes` live here too, so the same rule holds as for SQLite's
/// `Connection`: it is `@unchecked Sendable` only so it can be handed to the thread that
/// will own it; that owner confines every call to itself. Open one connection per thread.
///
/// Statements are prepared without parameter types, so the server infers each `$n` from
/// where it stands. That works for what store SQL does (comparing to a column, INSERT
/// values, `LIMIT ?`, a function argument), with three spots to know about:
/// - a parameter whose only use is `? IS NULL` has no type to infer, and the statement
///   fails with `.other(sqlstate: "42P18", ...)`; every `?` is its own `$n`, so
///   `x = ? OR ? IS NULL` hits it. Spell the type out, which SQLite reads the same way:
///   `x = ? OR CAST(? AS BIGINT) IS NULL`;
/// - arithmetic on a bare parameter (`? + 1`) is typed integer (32 bits), so a larger
///   value fails with 22003; write `CAST(? AS BIGINT) + 1`;
/// - a bare `SELECT ?` is typed text.
///
/// There is no `lastInsertRowID`: PostgreSQL has no rowid; use `INSERT ... RETURNING id`.
public final class Connection: @unchecked Sendable {
    /// The `PGconn*`; nil once closed.
    private(set) var pointer: OpaquePointer?
    /// Prepared statements of this session by the SQL text callers wrote (with `?`).
    var statementCache: [String: PreparedStatement] = [:]
    /// Numbers the prepared statements' names; never reused within a session.
    var nextStatementNumber = 0

    /// Rows changed by the most recent INSERT, UPDATE, DELETE or MERGE on this connection.
    public internal(set) var changes: Int = 0

    /// Opens a connection from a URL such as
    /// `postgres://user:password@127.0.0.1:5432/db?sslmode=disable`; anything libpq accepts
    /// as a connection string works.
    ///
    /// A 10 s connect timeout unless the URL sets `connect_timeout` (libpq would otherwise
    /// wait on an unreachable host for as long as TCP does), and always the UTF8 client
    /// encoding, which is what Swift strings are. Unless the URL says otherwise, a server
    /// that is gone is noticed in bounded time, not after TCP's quarter of an hour of
    /// retries: keepalives after 10 s of silence (every 5 s, 3 unanswered end it) and
    /// `tcp_user_timeout` 30 s (data sent and not acknowledged for that long ends it).
    /// Server NOTICEs (`relation already exists, skipping`) are dropped instead of going to
    /// stderr, where they would break the server's one-JSON-object-per-line log.
    /// Settings a URL may override (they come before it, see `init(url:)`).
    static let defaults: [(keyword: String, value: String)] = [
        ("connect_timeout", "10"),
        ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "5"), ("keepalives_count", "3"),
        ("tcp_user_timeout", "30000"),
    ]

    public init(url: String) throws(PostgreSQLError) {
        _ = try LibPQ.loaded.get()
        // With expand_dbname the URL in "dbname" is expanded in place: its settings override
        // the keywords before it, and the ones after it override the URL.
        let pointer = Self.withCStrings(Self.defaults.map(\.keyword) + ["dbname", "client_encoding"]) { keywords in
            Self.withCStrings(Self.defaults.map(\.value) + [url, "UTF8"]) { values in
                libpq.PQconnectdbParams(keywords, values, 1)
            }
        }
        guard let pointer else {
            throw PostgreSQLError.cannotConnect(message: "libpq could not allocate a connection")
        }
        guard libpq.PQstatus(pointer) == CONNECTION_OK else {
            let message = PostgreSQLError.oneLine(String(cString: libpq.PQerrorMessage(pointer)))
            libpq.PQfinish(pointer)
            throw PostgreSQLError.cannotConnect(message: Self.redactingPassword(of: url, in: message))
        }
        self.pointer = pointer
        Self.silenceNotices(pointer)
    }

    deinit {
        if let pointer { libpq.PQfinish(pointer) }
    }

    /// Closes the session. Using the connection afterwards is a bug (it traps), except
    /// `isBroken`, which answers true.
    public func close() {
        if let pointer { libpq.PQfinish(pointer) }
        pointer = nil
        statementCache.removeAll()
    }

    /// Whether the session is gone (closed here, or libpq saw the socket fail). Checked by
    /// a pool before handing a connection out; `reset()` reconnects.
    public var isBroken: Bool {
        guard let pointer else { return true }
        return libpq.PQstatus(pointer) != CONNECTION_OK
    }

    /// Reconnects with the same settings. The server forgets the session's prepared
    /// statements, so the cache is emptied too.
    public func reset() throws(PostgreSQLError) {
        let pointer = open
        statementCache.removeAll()
        libpq.PQreset(pointer)
        guard libpq.PQstatus(pointer) == CONNECTION_OK else {
            throw PostgreSQLError.cannotConnect(message: PostgreSQLError.oneLine(String(cString: libpq.PQerrorMessage(pointer))))
        }
        Self.silenceNotices(pointer)
    }

    /// Runs one or more statements separated by semicolons, discarding any rows (PQexec).
    /// Meant for schema scripts and fixed commands; it binds nothing, so it must never see
    /// user input.
    public func execute(_ sql: String) throws(PostgreSQLError) {
        let result = try checked(libpq.PQexec(open, sql))
        noteChanges(result)
    }

    /// Whether a transaction block is open, including one that failed and awaits ROLLBACK.
    public var isInTransaction: Bool {
        let status = libpq.PQtransactionStatus(open)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR || status == PQTRANS_ACTIVE
    }

    /// Whether the open transaction has failed (a statement's error) and can only be rolled
    /// back, or to a savepoint: COMMIT would quietly roll it back.
    public var isInFailedTransaction: Bool {
        libpq.PQtransactionStatus(open) == PQTRANS_INERROR
    }

    /// The server process serving this session (`pg_backend_pid()`).
    public var backendProcessID: Int32 {
        libpq.PQbackendPID(open)
    }

    /// The open `PGconn*`. Every call after `close()` is a bug in the caller, so stop there.
    var open: OpaquePointer {
        guard let pointer else { preconditionFailure("PostgreSQL connection used after close()") }
        return pointer
    }

    /// The result when it succeeded; the typed error (and the result freed) when not.
    func checked(_ result: OpaquePointer?) throws(PostgreSQLError) -> QueryResult {
        guard let result else {
            // No result at all: out of memory, or the connection failed before an answer.
            throw PostgreSQLError(clientFailureOn: pointer)
        }
        let status = libpq.PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY else {
            let error = PostgreSQLError(result: result, connection: pointer)
            libpq.PQclear(result)
            throw error
        }
        return QueryResult(result)
    }

    /// `changes` follows SQLite's meaning: only statements that change rows set it, so a
    /// SELECT between an UPDATE and the read of `changes` does not overwrite it.
    func noteChanges(_ result: QueryResult) {
        let command = result.commandStatus
        if command.hasPrefix("INSERT ") || command.hasPrefix("UPDATE ") || command.hasPrefix("DELETE ")
            || command.hasPrefix("MERGE ") {
            changes = result.affectedRows
        }
    }

    private static func silenceNotices(_ pointer: OpaquePointer) {
        _ = libpq.PQsetNoticeProcessor(pointer, { _, _ in }, nil)
    }

    /// NUL-terminated copies of `strings` in a NULL-terminated array, as libpq's
    /// keyword/value arrays want them; freed when `body` returns.
    static func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
        let copies: [UnsafeMutablePointer<CChar>] = strings.map { string in
            let bytes = Array(string.utf8)
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (offset, byte) in bytes.enumerated() { copy[offset] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) } + [nil]
        return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
    }

    /// libpq's message for a malformed URL can quote a piece of it; the password must not
    /// reach a log that way. libpq quotes either the URL from its start (`"postgres://u:pw@…"`)
    /// or, when it cannot percent-decode the password, that field alone (`"pw"`). So the
    /// URL's password field is masked in both forms, and nothing else: masking the
    /// password's text wherever it occurs would mangle the message (the password `p` would
    /// turn `port` into `***ort`) and show where its letters occur.
    static func redactingPassword(of url: String, in message: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return message }
        let afterScheme = url[scheme.upperBound...]
        let authority = afterScheme.prefix { $0 != "/" && $0 != "?" }
        guard let at = authority.lastIndex(of: "@") else { return message }
        let userInfo = authority[..<at]
        guard let colon = userInfo.firstIndex(of: ":") else { return message }
        let password = userInfo[userInfo.index(after: colon)...]
        guard !password.isEmpty else { return message }
        let userInfoWithPassword = url[..<at] + "@"
        let userInfoMasked = url[...colon] + "***@"
        return message
            .replacing(userInfoWithPassword, with: userInfoMasked)
            .replacing("\"" + password + "\"", with: "\"***\"")
    }
}
