public import SQLValues

/// The current row of a statement, handed to the closure of `Connection.query`.
///
/// A row is a view, not a copy: read its columns inside the closure and return plain values.
/// Kept past the closure, it reads whatever row the statement is on by then.
public struct Row {
    let statement: Statement

    init(_ statement: Statement) {
        self.statement = statement
    }

    public var columnCount: Int { statement.columnCount }
    public func columnName(at index: Int) -> String { statement.columnName(at: index) }
    public func isNull(at index: Int) -> Bool { statement.isNull(at: index) }
    public func int64(at index: Int) -> Int64 { statement.int64(at: index) }
    public func int(at index: Int) -> Int { statement.int(at: index) }
    public func bool(at index: Int) -> Bool { statement.bool(at: index) }
    public func double(at index: Int) -> Double { statement.double(at: index) }
    public func text(at index: Int) -> String? { statement.text(at: index) }
    public func blob(at index: Int) -> [UInt8]? { statement.blob(at: index) }
    public func value(at index: Int) -> SQLValue { statement.value(at: index) }
}
