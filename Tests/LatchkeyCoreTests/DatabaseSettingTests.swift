@testable import LatchkeyCore
import Testing

/// The `database` setting's values, and how a log line may show one.
@Suite struct DatabaseSettingTests {
    @Test func sqliteAndPostgreSQLURLsAreTheOnlyValues() {
        #expect(DatabaseSetting("sqlite") == .sqlite)
        #expect(DatabaseSetting("postgres://u:p@db:5432/latchkey") == .postgres(url: "postgres://u:p@db:5432/latchkey"))
        #expect(DatabaseSetting("postgresql://db/latchkey") == .postgres(url: "postgresql://db/latchkey"))
        for refused in ["", "SQLite", "mysql://u:p@db/x", "postgres:/db", "postgres://u:p@db/x y", "postgres://db/x\n"] {
            #expect(DatabaseSetting(refused) == nil, "\(refused)")
        }
    }

    /// Neither the password in the authority nor anything in the query (libpq takes
    /// `password=` there too) reaches a log line.
    @Test(arguments: [
        ("postgres://latchkey:s3cret@127.0.0.1:5432/latchkey", "postgres://latchkey@127.0.0.1:5432/latchkey"),
        ("postgresql://latchkey@db.internal/auth?password=s3cret&sslmode=require", "postgresql://latchkey@db.internal/auth"),
        ("postgres://db.internal", "postgres://db.internal"),
        ("postgres://:s3cret@db/x", "postgres://db/x"),
        ("postgres://a%40b:s3:cr@et@db:6432/x", "postgres://a%40b@db:6432/x"),
    ])
    func theShownURLKeepsUserHostPortAndDatabaseOnly(_ url: String, _ shown: String) {
        #expect(DatabaseSetting(url)?.redacted == shown)
    }
}
