@testable import PostgreSQL
import Testing

extension PostgreSQLTests {
    @Suite struct PlaceholderTests {
        static let rewrites: [(sql: String, expected: String, count: Int)] = [
            ("SELECT 1", "SELECT 1", 0),
            ("UPDATE t SET a = ? WHERE b = ?", "UPDATE t SET a = $1 WHERE b = $2", 2),
            ("SELECT '?', ?", "SELECT '?', $1", 1),
            ("SELECT 'it''s ?', ?", "SELECT 'it''s ?', $1", 1),
            ("SELECT E'\\' ?', ?", "SELECT E'\\' ?', $1", 1),
            ("SELECT \"odd?name\" FROM t WHERE x = ?", "SELECT \"odd?name\" FROM t WHERE x = $1", 1),
            ("SELECT \"a\"\"?\" , ?", "SELECT \"a\"\"?\" , $1", 1),
            ("SELECT ? -- why?\n, ?", "SELECT $1 -- why?\n, $2", 2),
            ("SELECT ? /* a? /* nested? */ still? */ , ?", "SELECT $1 /* a? /* nested? */ still? */ , $2", 2),
            ("SELECT $$?$$, $tag$ ? $tag$, ?", "SELECT $$?$$, $tag$ ? $tag$, $1", 1),
            ("SELECT a$b, ?", "SELECT a$b, $1", 1),
            ("SELECT 'ünï?cödé', ?", "SELECT 'ünï?cödé', $1", 1),
            ("SELECT 'unterminated ?", "SELECT 'unterminated ?", 0),
        ]

        @Test(arguments: 0..<rewrites.count)
        func placeholdersOutsideLiteralsAndCommentsAreNumbered(index: Int) {
            let (sql, expected, count) = Self.rewrites[index]
            let rewritten = Placeholders.rewrite(sql)
            #expect(rewritten.sql == expected)
            #expect(rewritten.count == count)
        }

        @Test func questionMarksInLiteralsIdentifiersAndCommentsReachTheServerUntouched() throws {
            let schema = try TestSchema()
            let db = try schema.connect()
            try db.execute("CREATE TABLE \"odd?\" (\"why?\" TEXT)")
            try db.run("INSERT INTO \"odd?\" (\"why?\") VALUES (?) -- a comment? yes\n", "bound")
            let row = try db.queryOne("""
                SELECT '?' AS literal, E'\\'?' AS escaped, "why?" /* ? */, ? AS bound
                FROM "odd?" WHERE "why?" = ?
                """, "second", "bound") { row in
                (row.text(at: 0), row.text(at: 1), row.text(at: 2), row.text(at: 3))
            }
            #expect(row?.0 == "?")
            #expect(row?.1 == "'?")
            #expect(row?.2 == "bound")
            #expect(row?.3 == "second")
        }
    }

    /// How the server infers the type of a parameter prepared without one, in the spots the
    /// store SQL uses, and the one spot where it cannot.
    @Suite struct ParameterTypeTests {
        let schema: TestSchema
        let db: Connection

        init() throws {
            schema = try TestSchema()
            db = try schema.connect()
            try db.execute("""
                CREATE TABLE users (id BIGINT PRIMARY KEY, email TEXT NOT NULL, created_at BIGINT NOT NULL, active INTEGER NOT NULL);
                INSERT INTO users VALUES (1, 'a@example.com', 100, 1), (2, 'b@example.com', 200, 0), (3, 'c@example.com', 300, 1);
                """)
        }

        @Test func comparisonsToColumnsInsertValuesAndLimitInfer() throws {
            try db.run("INSERT INTO users (id, email, created_at, active) VALUES (?, ?, ?, ?)", 4, "d@example.com", 5_000_000_000, true)
            let ids = try db.query(
                "SELECT id FROM users WHERE created_at >= ? AND email <> ? AND active = ? ORDER BY id LIMIT ?",
                150, "c@example.com", true, 5
            ) { $0.int(at: 0) }
            #expect(ids == [4])
            #expect(try db.query("SELECT id FROM users ORDER BY id LIMIT ? OFFSET ?", 2, 1) { $0.int(at: 0) } == [2, 3])
        }

        /// `x = ? OR ? IS NULL` becomes `x = $1 OR $2 IS NULL`: nothing tells the server
        /// what `$2` is, and it refuses (42P18). Spelling the type out works on both
        /// databases: `CAST(? AS BIGINT) IS NULL`.
        @Test func aParameterOnlyTestedForNullNeedsItsTypeSpelledOut() throws {
            let error = #expect(throws: PostgreSQLError.self) {
                try db.query("SELECT id FROM users WHERE id = ? OR ? IS NULL", 1, 1) { $0.int(at: 0) }
            }
            #expect(error?.sqlstate == "42P18")
            let filter: Int? = nil
            let all = try db.query(
                "SELECT id FROM users WHERE (id = ? OR CAST(? AS BIGINT) IS NULL) ORDER BY id", filter, filter
            ) { $0.int(at: 0) }
            #expect(all == [1, 2, 3])
            let one = try db.query("SELECT id FROM users WHERE (id = ? OR CAST(? AS BIGINT) IS NULL)", 2, 2) { $0.int(at: 0) }
            #expect(one == [2])
        }

        /// A bare `SELECT ?` is typed text, and arithmetic on a bare parameter is typed
        /// integer (32 bits): a bigint value there fails, so cast it (`CAST(? AS BIGINT)`).
        @Test func bareParametersAreTextAndArithmeticIsInt4() throws {
            #expect(try db.queryOne("SELECT ?", 42) { $0.int64(at: 0) } == 42)
            #expect(try db.queryOne("SELECT ?", "x") { $0.text(at: 0) } == "x")
            let error = #expect(throws: PostgreSQLError.self) {
                try db.queryOne("SELECT ? + 1", 5_000_000_000) { $0.int64(at: 0) }
            }
            #expect(error?.sqlstate == "22003")
            // A data exception's message quotes the rejected input; the error leaves it out.
            #expect(error.map { "\($0)".contains("5000000000") } == false)
            #expect(try db.queryOne("SELECT CAST(? AS BIGINT) + 1", 5_000_000_000) { $0.int64(at: 0) } == 5_000_000_001)
        }
    }
}
