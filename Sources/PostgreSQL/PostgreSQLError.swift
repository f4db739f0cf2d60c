import CPostgreSQL

/// A failure reported by PostgreSQL or libpq, sorted by SQLSTATE into the cases callers act on.
///
/// Every message is the server's primary message (PG_DIAG_MESSAGE_PRIMARY) or libpq's own
/// text for a failure on the client side. The DETAIL field is never read: for a unique
/// violation it holds the duplicate key (an email address), for other constraints the whole
/// row. Data exceptions (class 22) are the one place where the primary message quotes a
/// value (`invalid input syntax for type bigint: "<value>"`), so those are cut back to the
/// sentence without it. Nothing here ever includes a bound parameter, so an error is safe to
/// log even when the statement carried a password hash or a token.
///
/// Match a case without its payload: `catch PostgreSQLError.uniqueViolation { ... }`.
public enum PostgreSQLError: Error, Equatable, CustomStringConvertible {
    /// 23505: a UNIQUE or PRIMARY KEY constraint failed; `constraint` names it, so a store
    /// can tell "email taken" from "display name taken".
    case uniqueViolation(constraint: String, message: String)
    /// 23503: a FOREIGN KEY constraint failed.
    case foreignKeyViolation(constraint: String, message: String)
    /// Any other integrity constraint (class 23: NOT NULL, CHECK, exclusion); `constraint`
    /// is empty when the server names none (NOT NULL).
    case constraint(sqlstate: String, constraint: String, message: String)
    /// 40001: a serializable transaction could not be serialized; run it again.
    case serializationFailure(message: String)
    /// 40P01: the server broke a deadlock by failing this transaction; run it again.
    case deadlock(message: String)
    /// The connection is gone (class 08, an administrator or crash shutdown 57P01/57P02,
    /// or libpq found the socket closed). `Connection.reset()` reconnects.
    case connectionLost(message: String)
    /// The connection could not be opened (server down, wrong password, no such database).
    case cannotConnect(message: String)
    /// 57014: statement_timeout or a cancel request stopped the statement.
    case queryCanceled(message: String)
    /// Everything else, with its SQLSTATE: a syntax error, a missing table, an undetermined
    /// parameter type (42P18), a failed transaction (25P02).
    case other(sqlstate: String, message: String)

    public var message: String {
        switch self {
        case .uniqueViolation(_, let message), .foreignKeyViolation(_, let message),
             .constraint(_, _, let message), .serializationFailure(let message), .deadlock(let message),
             .connectionLost(let message), .cannotConnect(let message), .queryCanceled(let message),
             .other(_, let message):
            return message
        }
    }

    public var description: String {
        switch self {
        case .uniqueViolation(let constraint, let message):
            return "PostgreSQL unique violation (\(constraint)): \(message)"
        case .foreignKeyViolation(let constraint, let message):
            return "PostgreSQL foreign key violation (\(constraint)): \(message)"
        case .constraint(let sqlstate, let constraint, let message):
            return "PostgreSQL constraint failed (\(sqlstate)\(constraint.isEmpty ? "" : ", " + constraint)): \(message)"
        case .serializationFailure(let message): return "PostgreSQL serialization failure: \(message)"
        case .deadlock(let message): return "PostgreSQL deadlock: \(message)"
        case .connectionLost(let message): return "PostgreSQL connection lost: \(message)"
        case .cannotConnect(let message): return "PostgreSQL cannot connect: \(message)"
        case .queryCanceled(let message): return "PostgreSQL query canceled: \(message)"
        case .other(let sqlstate, let message): return "PostgreSQL error \(sqlstate): \(message)"
        }
    }

    /// Sorts a server error by its SQLSTATE.
    init(sqlstate: String, constraint: String, message: String) {
        switch sqlstate {
        case "23505": self = .uniqueViolation(constraint: constraint, message: message)
        case "23503": self = .foreignKeyViolation(constraint: constraint, message: message)
        case "40001": self = .serializationFailure(message: message)
        case "40P01": self = .deadlock(message: message)
        case "57014": self = .queryCanceled(message: message)
        case "57P01", "57P02": self = .connectionLost(message: message)
        default:
            if sqlstate.hasPrefix("23") {
                self = .constraint(sqlstate: sqlstate, constraint: constraint, message: message)
            } else if sqlstate.hasPrefix("08") {
                self = .connectionLost(message: message)
            } else if sqlstate.hasPrefix("22") {
                self = .other(sqlstate: sqlstate, message: Self.withoutQuotedValues(message))
            } else {
                self = .other(sqlstate: sqlstate, message: message)
            }
        }
    }

    /// The error a failed result carries. A result without SQLSTATE was made by libpq
    /// itself: when the connection is no longer OK, that is a lost connection.
    init(result: OpaquePointer, connection: OpaquePointer?) {
        func field(_ code: Int32) -> String? {
            libpq.PQresultErrorField(result, code).map { String(cString: $0) }
        }
        guard let sqlstate = field(CPOSTGRESQL_DIAG_SQLSTATE) else {
            self.init(clientFailureOn: connection)
            return
        }
        let message = field(CPOSTGRESQL_DIAG_MESSAGE_PRIMARY) ?? "no message"
        self.init(sqlstate: sqlstate, constraint: field(CPOSTGRESQL_DIAG_CONSTRAINT_NAME) ?? "", message: message)
    }

    /// A failure libpq found on its side (no result at all, or one without SQLSTATE).
    /// libpq's own messages hold no server DETAIL and no parameters.
    init(clientFailureOn connection: OpaquePointer?) {
        let message = connection.map { Self.oneLine(String(cString: libpq.PQerrorMessage($0))) } ?? ""
        if connection == nil || libpq.PQstatus(connection) != CONNECTION_OK {
            self = .connectionLost(message: message.isEmpty ? "the connection is closed" : message)
        } else {
            self = .other(sqlstate: "", message: message.isEmpty ? "libpq reported a failure without a message" : message)
        }
    }

    /// libpq's messages end in a newline and may span lines (one per address it tried).
    static func oneLine(_ text: String) -> String {
        let words = text.split(whereSeparator: { $0 == "\n" || $0 == "\t" || $0 == "\r" })
        return words.map { $0.trimmingSpaces() }.filter { !$0.isEmpty }.joined(separator: " ")
    }

    /// A data exception's message with the value taken out: the text after `": "` and every
    /// double-quoted run become `…`. PostgreSQL quotes the rejected input there
    /// (`value "…" is out of range for type integer`).
    static func withoutQuotedValues(_ message: String) -> String {
        var kept = Substring(message)
        if let colon = kept.firstRange(of: ": ") {
            kept = kept[..<colon.lowerBound]
        }
        var result = ""
        var inQuotes = false
        for character in kept {
            if character == "\"" {
                result.append(inQuotes ? "…\"" : "\"")
                inQuotes.toggle()
            } else if !inQuotes {
                result.append(character)
            }
        }
        if inQuotes { result.append("…") }
        return result
    }
}

extension Substring {
    fileprivate func trimmingSpaces() -> Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}
