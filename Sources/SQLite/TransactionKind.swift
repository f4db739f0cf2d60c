/// How a transaction takes its locks.
public enum TransactionKind: Sendable {
    /// Takes the write lock at BEGIN, so a write inside never fails half-way with SQLITE_BUSY
    /// on lock upgrade; the busy timeout applies at BEGIN instead. The right choice for writes.
    case immediate
    /// Takes locks on first use; suits a group of reads that must see one snapshot.
    case deferred

    var beginSQL: String {
        switch self {
        case .immediate: return "BEGIN IMMEDIATE"
        case .deferred: return "BEGIN DEFERRED"
        }
    }
}
