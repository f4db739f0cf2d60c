internal import PostgreSQL
internal import SQLite
internal import SQLValues

/// The statements that must differ between the databases a store runs on.
enum SQLDialect: Sendable {
    case sqlite, postgres

    /// Ends a `SELECT` whose rows the transaction takes for itself: on PostgreSQL, rows
    /// another transaction holds are skipped rather than waited for (several instances
    /// claiming work at once each get their own); SQLite's one writer already serialises
    /// every claim.
    var skippingLockedRows: String {
        switch self {
        case .sqlite: ""
        case .postgres: " FOR UPDATE SKIP LOCKED"
        }
    }

    /// What breaks a tie between rows of `users` or `sessions` created in the same second
    /// (`ORDER BY created_at, …`). In SQLite the rowid: the order they were inserted in.
    /// PostgreSQL's tables have no such column (its schema could add one), so there the
    /// random id decides: stable, but not the order of insertion.
    var insertionOrder: String {
        switch self {
        case .sqlite: "rowid"
        case .postgres: "id"
        }
    }
}

/// The connection the stores' SQL runs on. It exists so the same store SQL runs on SQLite
/// and on PostgreSQL: stores see this, never a backend's connection, row or value types.
///
/// Used by one thread at a time, like the connection it wraps (see `SQLite.Connection` and
/// `PostgreSQL.Connection`).
/// SQL takes `?` placeholders, one value per `?` in order (no `?NNN`, no names).
struct StoreConnection: Sendable {
    enum Backend: Sendable {
        case sqlite(SQLite.Connection)
        case postgres(PostgreSQL.Connection)
    }

    let backend: Backend

    init(_ backend: Backend) {
        self.backend = backend
    }

    var dialect: SQLDialect {
        switch backend {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    /// Runs one statement with `values` bound, discarding any rows.
    func run(_ sql: String, _ values: (any SQLBindable)?...) throws {
        switch backend {
        case .sqlite(let connection): try connection.run(sql, values: values.sqlValues)
        case .postgres(let connection): _ = try connection.run(sql, values: values.sqlValues)
        }
    }

    /// Rows the last INSERT, UPDATE or DELETE changed; a query since does not reset it.
    var changes: Int {
        switch backend {
        case .sqlite(let connection): connection.changes
        case .postgres(let connection): connection.changes
        }
    }

    /// Every row of a query, each turned into a value by `row`.
    func query<T>(_ sql: String, _ values: (any SQLBindable)?..., row: (StoreRow) throws -> T) throws -> [T] {
        switch backend {
        case .sqlite(let connection):
            try connection.query(sql, values: values.sqlValues) { try row(StoreRow(.sqlite($0))) }
        case .postgres(let connection):
            try connection.query(sql, values: values.sqlValues) { try row(StoreRow(.postgres($0))) }
        }
    }

    /// The first row of a query, or nil when there is none.
    func queryOne<T>(_ sql: String, _ values: (any SQLBindable)?..., row: (StoreRow) throws -> T) throws -> T? {
        switch backend {
        case .sqlite(let connection):
            try connection.queryOne(sql, values: values.sqlValues) { try row(StoreRow(.sqlite($0))) }
        case .postgres(let connection):
            try connection.queryOne(sql, values: values.sqlValues) { try row(StoreRow(.postgres($0))) }
        }
    }

    /// Runs a script of statements separated by semicolons; it binds nothing, so it must
    /// never see user input.
    func execute(_ sql: String) throws {
        switch backend {
        case .sqlite(let connection): try connection.execute(sql)
        case .postgres(let connection): try connection.execute(sql)
        }
    }

    /// Runs `body` in a transaction of its own: committed when it returns, rolled back
    /// when it throws. Not for a writer's job: its batch is a transaction already.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        switch backend {
        case .sqlite(let connection): try connection.transaction(.immediate, body)
        case .postgres(let connection): try connection.transaction(.readCommitted) { _ in try body() }
        }
    }

    /// A private scratch database of this process (SQLite's temporary one, deleted when
    /// the connection closes), whatever database the server itself uses.
    static func temporary() throws -> StoreConnection {
        StoreConnection(.sqlite(try SQLite.Connection(path: "")))
    }
}
