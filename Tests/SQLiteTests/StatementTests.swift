import SQLite
import SQLValues
import Testing

extension SQLiteTests {
    @Suite struct StatementTests {
        let dir: TemporaryDirectory
        let db: Connection

        init() throws {
            dir = try TemporaryDirectory()
            db = try Connection(path: dir.file("db.sqlite"))
            // No declared type, so SQLite stores each value exactly as bound.
            try db.execute("CREATE TABLE v (id INTEGER PRIMARY KEY, value)")
        }

        private func roundTrip(_ value: SQLValue) throws -> (SQLValue, String)? {
            try db.run("DELETE FROM v")
            try db.run("INSERT INTO v (id, value) VALUES (1, ?)", value)
            return try db.queryOne("SELECT value, typeof(value) FROM v WHERE id = 1") {
                ($0.value(at: 0), $0.text(at: 1) ?? "")
            }
        }

        @Test(arguments: [
            (SQLValue.null, "null"),
            (.integer(0), "integer"),
            (.integer(Int64.max), "integer"),
            (.integer(Int64.min), "integer"),
            (.real(3.25), "real"),
            (.real(-0.5), "real"),
            (.text(""), "text"),
            (.text("plain"), "text"),
            (.text("héllo wörld, 日本語, 🔑🧑‍💻"), "text"),
            (.text("nul\u{0}inside"), "text"),
            (.blob([]), "blob"),
            (.blob([0, 0, 0]), "blob"),
            (.blob([0x00, 0xFF, 0x00, 0x7F, 0x80]), "blob"),
        ])
        func everyValueTypeRoundTrips(value: SQLValue, storedType: String) throws {
            let result = try roundTrip(value)
            #expect(result?.0 == value)
            #expect(result?.1 == storedType)
        }

        @Test func typedReadsReturnWhatWasBound() throws {
            let bytes: [UInt8] = [0, 1, 2, 0, 255]
            try db.execute("CREATE TABLE typed (i INTEGER, r REAL, t TEXT, b BLOB, n TEXT, flag INTEGER)")
            try db.run("INSERT INTO typed VALUES (?, ?, ?, ?, ?, ?)", 42, 2.5, "žluťoučký 🐎", bytes, nil, true)
            let row = try #require(try db.queryOne("SELECT i, r, t, b, n, flag FROM typed") { row in
                (row.int(at: 0), row.int64(at: 0), row.double(at: 1), row.text(at: 2), row.blob(at: 3),
                 row.isNull(at: 4), row.text(at: 4), row.blob(at: 4), row.bool(at: 5), row.isNull(at: 0))
            })
            #expect(row.0 == 42)
            #expect(row.1 == 42)
            #expect(row.2 == 2.5)
            #expect(row.3 == "žluťoučký 🐎")
            #expect(row.4 == bytes)
            #expect(row.5)
            #expect(row.6 == nil)
            #expect(row.7 == nil)
            #expect(row.8 == true)
            #expect(row.9 == false)
        }

        @Test func swiftValuesBindDirectlyIncludingOptionals() throws {
            let int = 7
            let int64: Int64 = -9
            let double = 1.5
            let string = "text"
            let bytes: [UInt8] = [9, 0, 9]
            let flag = false
            let present: String? = "here"
            let absent: Int? = nil
            let values = try db.query(
                "SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?",
                int, int64, double, string, bytes, flag, present, absent, nil
            ) { row in (0..<row.columnCount).map { row.value(at: $0) } }
            #expect(values == [[.integer(7), .integer(-9), .real(1.5), .text("text"), .blob([9, 0, 9]),
                                .integer(0), .text("here"), .null, .null]])
        }

        /// A caller forwarding a list it gathered itself (another layer's variadic
        /// parameters) gets exactly what the variadic calls give.
        @Test func valuesGatheredInAnArrayBindAsTheVariadicOnesDo() throws {
            try db.run("INSERT INTO v (id, value) VALUES (?, ?)", values: [1, [9, 0, 9]])
            try db.run("INSERT INTO v (id, value) VALUES (?, ?)", values: [2, nil])
            #expect(try db.query("SELECT id, value FROM v WHERE id <= ? ORDER BY id", values: [2]) { [$0.value(at: 0), $0.value(at: 1)] }
                == [[.integer(1), .blob([9, 0, 9])], [.integer(2), .null]])
            #expect(try db.queryOne("SELECT value FROM v WHERE id = ?", values: [.integer(1)]) { $0.blob(at: 0) } == [9, 0, 9])
            #expect(try db.queryOne("SELECT value FROM v WHERE id = ?", values: [3]) { $0.blob(at: 0) } == nil)
            #expect(try db.query("SELECT count(*) FROM v", values: []) { $0.int(at: 0) } == [2])
        }

        @Test func literalsConvertToValues() {
            let values: [SQLValue] = [nil, 1, 2.5, true, "s", [0, 1]]
            #expect(values == [.null, .integer(1), .real(2.5), .integer(1), .text("s"), .blob([0, 1])])
        }

        @Test func positionalAndNamedBinds() throws {
            let statement = try db.prepare("SELECT :a, ?2, :a")
            #expect(statement.parameterCount == 2)
            try statement.bind("x", named: ":a")
            try statement.bind(.integer(5), at: 2)
            #expect(try statement.step())
            #expect(statement.text(at: 0) == "x")
            #expect(statement.int(at: 1) == 5)
            #expect(statement.text(at: 2) == "x")
            #expect(try statement.step() == false)
        }

        @Test func stepReturnsEachRowThenDone() throws {
            for id in 1...3 { try db.run("INSERT INTO v (id, value) VALUES (?, ?)", id, "row \(id)") }
            let statement = try db.prepare("SELECT id, value FROM v ORDER BY id")
            #expect(statement.columnCount == 2)
            #expect(statement.columnName(at: 1) == "value")
            var ids: [Int] = []
            while try statement.step() { ids.append(statement.int(at: 0)) }
            #expect(ids == [1, 2, 3])
            statement.reset()
            #expect(try statement.step())
            #expect(statement.int(at: 0) == 1)
        }

        @Test func queryOneReturnsNilWhenNoRowMatches() throws {
            #expect(try db.queryOne("SELECT value FROM v WHERE id = ?", 99) { $0.text(at: 0) } == nil)
        }

        @Test func rowReaderErrorsPropagate() throws {
            struct Stop: Error {}
            try db.run("INSERT INTO v (id, value) VALUES (1, 'a')")
            #expect(throws: Stop.self) {
                _ = try db.query("SELECT value FROM v") { _ in throw Stop() }
            }
            // The statement was reset on the way out, so it runs again from the start.
            #expect(try db.query("SELECT value FROM v") { $0.text(at: 0) } == ["a"])
        }
    }
}
