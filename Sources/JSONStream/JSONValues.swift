/// A place in the input: line and column from 1 (the column counts bytes, so it is exact
/// whatever the text), and the offset from the first byte.
public struct JSONLocation: Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var offset: Int

    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    public var description: String { "line \(line), column \(column)" }
}

/// Input that is not JSON, or not the JSON a caller expects, and where.
public struct JSONStreamError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public let location: JSONLocation

    public init(_ message: String, at location: JSONLocation) {
        self.message = message
        self.location = location
    }

    public var description: String { "\(location): \(message)" }
}

/// What the next value is, told from its first byte.
public enum JSONKind: Sendable, Equatable, CustomStringConvertible {
    case object, array, string, number, bool, null

    /// As a message names it: "expected a string, found an object".
    public var description: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "true or false"
        case .null: "null"
        }
    }
}

/// A value that is not a container. Numbers stay as written: the caller knows whether
/// it wants an integer, and no precision is lost on the way.
public enum JSONScalar: Sendable, Equatable {
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    public var string: String? {
        if case .string(let text) = self { text } else { nil }
    }

    /// A number written without fraction or exponent that fits in 64 bits.
    public var integer: Int64? {
        if case .number(let text) = self { Int64(text) } else { nil }
    }

    public var bool: Bool? {
        if case .bool(let value) = self { value } else { nil }
    }

    public var isNull: Bool { self == .null }
}
