/// A statement's SQL as the key of its connection's statement cache, hashed by its length
/// and at most its last 32 bytes; `==` still compares all of it (and for the same
/// `static let` text, only its storage).
///
/// Every statement run looks its text up here, and `String`'s own hash reads every byte:
/// a refresh runs six statements, and hashing their 20 to 600 bytes of SQL was some 6,500
/// instructions of it. Store SQL is a fixed set of literals whose lengths and endings (the
/// table and the `WHERE`) already tell nearly all of them apart; two that share both only
/// share a bucket.
struct StatementCacheKey: Hashable {
    let sql: String

    static func == (left: StatementCacheKey, right: StatementCacheKey) -> Bool {
        left.sql == right.sql
    }

    func hash(into hasher: inout Hasher) {
        var sql = sql
        sql.withUTF8 { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(Self.hashedSuffix))))
        }
    }

    static let hashedSuffix = 32
}
