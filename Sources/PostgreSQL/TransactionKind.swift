/// The isolation a transaction runs at.
public enum TransactionKind: Sendable {
    /// PostgreSQL's default: each statement sees what was committed before it started, and
    /// a write waits for a row another transaction holds. Fits short writes that lock what
    /// they change (`SELECT ... FOR UPDATE`, unique constraints).
    case readCommitted
    /// The transaction behaves as if it ran alone, and fails with
    /// `PostgreSQLError.serializationFailure` when it could not; the caller retries it.
    case serializable

    var beginSQL: String {
        switch self {
        case .readCommitted: return "BEGIN"
        case .serializable: return "BEGIN ISOLATION LEVEL SERIALIZABLE"
        }
    }
}
