/// One numbered schema change, usually read from a file such as `0001_initial.sql`: what
/// the SQLite and the PostgreSQL migrators both apply, so a migration's number, name and
/// checksum are the same on either database.
///
/// The SQL runs inside the migrator's transaction, so it must not contain BEGIN, COMMIT or
/// ROLLBACK (nor, on SQLite, a pragma that is a no-op inside a transaction such as
/// `foreign_keys`; on PostgreSQL, a command refused in a transaction block such as
/// `CREATE INDEX CONCURRENTLY`).
public struct Migration: Sendable, Equatable {
    public let version: Int
    public let name: String
    public let sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }

    /// The file-style name people recognise in messages: `0002_users`.
    public var displayName: String {
        Migration.displayName(version: version, name: name)
    }

    /// FNV-1a 64-bit of the SQL text, as 16 hex digits. An edit guard that notices a migration
    /// changed after it was applied; it is not a security check (anyone who can edit the
    /// file can match the checksum).
    public var checksum: String {
        FNV1a64.hex(of: sql)
    }

    /// The migration in a file named `<digits>_<name>.sql` (`0001_initial.sql` is version 1,
    /// name "initial"); nil for any other file, so a directory listing can be filtered with it.
    /// A leading directory path is ignored.
    public static func parse(fileName: String, sql: String) -> Migration? {
        let baseName = fileName.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard baseName.hasSuffix(".sql") else { return nil }
        let stem = baseName.dropLast(4)
        guard let separator = stem.firstIndex(of: "_") else { return nil }
        let digits = stem[..<separator]
        let name = stem[stem.index(after: separator)...]
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let version = Int(digits), version > 0, !name.isEmpty else { return nil }
        return Migration(version: version, name: String(name), sql: sql)
    }

    static func displayName(version: Int, name: String?) -> String {
        let number = String(version)
        let padded = String(repeating: "0", count: max(0, 4 - number.count)) + number
        guard let name else { return padded }
        return padded + "_" + name
    }
}
