internal import PostgreSQL

extension PostgreSQLError: DriverError {
    /// The same cases as SQLite's: a unique violation is the conflict a service may meet
    /// (with the same API answer on both); what SQLite would call busy (a server out of
    /// reach, a lost connection, a write that lost its serialization retries, a canceled
    /// statement) is busy; the rest is the server's fault. PostgreSQL's messages never
    /// carry a bound value, and a connection's never the URL's password (see
    /// `PostgreSQLError`, `Connection.init(url:)`).
    var storeError: StoreError {
        switch self {
        case .uniqueViolation: .conflict
        case .serializationFailure, .deadlock, .connectionLost, .cannotConnect, .queryCanceled: .busy
        case .foreignKeyViolation, .constraint, .other: .failed(description)
        }
    }
}
