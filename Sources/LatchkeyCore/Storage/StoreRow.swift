internal import SQLite

/// The current row of a store query, whichever database it came from. Like the rows it
/// wraps, it is a view of the statement: read it inside the query's closure.
struct StoreRow {
    enum Source {
        case sqlite(SQLite.Row)
    }

    let source: Source

    init(_ source: Source) {
        self.source = source
    }

    func isNull(at index: Int) -> Bool {
        switch source {
        case .sqlite(let row): row.isNull(at: index)
        }
    }

    /// NULL reads as 0.
    func int64(at index: Int) -> Int64 {
        switch source {
        case .sqlite(let row): row.int64(at: index)
        }
    }

    func int(at index: Int) -> Int {
        switch source {
        case .sqlite(let row): row.int(at: index)
        }
    }

    /// Nonzero is true (flags are integer columns).
    func bool(at index: Int) -> Bool {
        switch source {
        case .sqlite(let row): row.bool(at: index)
        }
    }

    func double(at index: Int) -> Double {
        switch source {
        case .sqlite(let row): row.double(at: index)
        }
    }

    /// Nil for NULL.
    func text(at index: Int) -> String? {
        switch source {
        case .sqlite(let row): row.text(at: index)
        }
    }

    /// Nil for NULL; a zero-length value reads as `[]`.
    func blob(at index: Int) -> [UInt8]? {
        switch source {
        case .sqlite(let row): row.blob(at: index)
        }
    }
}
