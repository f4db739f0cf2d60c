/// A user or session id as a request names it, checked before it reaches a query.
enum RequestedIdentifier {
    /// False for an id holding a NUL character. Such an id names nothing stored (the server
    /// makes hex ids, an import takes uids of `A-Z a-z 0-9 _ -`), and PostgreSQL text cannot
    /// hold NUL: looking it up there fails (a 500) where SQLite finds nothing (a 404).
    static func canExist(_ id: String) -> Bool {
        !id.utf8.contains(0)
    }
}
