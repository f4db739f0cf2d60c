internal import PostgreSQL
internal import SQLite

/// The current row of a store query, whichever database it came from. Like the rows it
/// wraps, it is a view of the statement: read it inside the query's closure.
struct StoreRow {
    enum Source {
        case sqlite(SQLite.Row)
        case postgres(PostgreSQL.Row)
    }

    let source: Source

    init(_ source: Source) {
        self.source = source
    }

    func isNull(at index: Int) -> Bool { read({ $0.isNull(at: index) }, { $0.isNull(at: index) }) }

    /// NULL reads as 0.
    func int64(at index: Int) -> Int64 { read({ $0.int64(at: index) }, { $0.int64(at: index) }) }

    func int(at index: Int) -> Int { read({ $0.int(at: index) }, { $0.int(at: index) }) }

    /// Nonzero is true (flags are integer columns).
    func bool(at index: Int) -> Bool { read({ $0.bool(at: index) }, { $0.bool(at: index) }) }

    func double(at index: Int) -> Double { read({ $0.double(at: index) }, { $0.double(at: index) }) }

    /// Nil for NULL.
    func text(at index: Int) -> String? { read({ $0.text(at: index) }, { $0.text(at: index) }) }

    /// Nil for NULL; a zero-length value reads as `[]`.
    func blob(at index: Int) -> [UInt8]? { read({ $0.blob(at: index) }, { $0.blob(at: index) }) }

    /// The one place that picks the backend: each accessor above names its read once per
    /// backend (a closure the optimizer inlines, not a value per column).
    private func read<T>(_ sqlite: (SQLite.Row) -> T, _ postgres: (PostgreSQL.Row) -> T) -> T {
        switch source {
        case .sqlite(let row): sqlite(row)
        case .postgres(let row): postgres(row)
        }
    }
}
