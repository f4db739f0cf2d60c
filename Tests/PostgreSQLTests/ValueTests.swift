import PostgreSQL
import SQLValues
import Testing

extension PostgreSQLTests {
    @Suite struct ValueTests {
        let schema: TestSchema
        let db: Connection

        init() throws {
            schema = try TestSchema()
            db = try schema.connect()
            try db.execute("""
                CREATE TABLE items (
                    id BIGINT PRIMARY KEY, small INTEGER, real DOUBLE PRECISION, label TEXT,
                    data BYTEA, flag INTEGER, note TEXT
                )
                """)
        }

        @Test func everyBindableTypeRoundTripsAndNilBindsNull() throws {
            let note: String? = nil
            try db.run(
                "INSERT INTO items (id, small, real, label, data, flag, note) VALUES (?, ?, ?, ?, ?, ?, ?)",
                Int64(9_000_000_000), Int32(-7), 2.5, "Ada ✓ 👩‍💻", [UInt8]([0, 1, 254, 255]), true, note
            )
            try db.run("INSERT INTO items (id, small, flag) VALUES (?, ?, ?)", 2, Int(42), false)
            let first = try db.queryOne("SELECT id, small, real, label, data, flag, note FROM items WHERE id = ?", Int64(9_000_000_000)) { row in
                (row.int64(at: 0), row.int(at: 1), row.double(at: 2), row.text(at: 3), row.blob(at: 4), row.bool(at: 5),
                 row.isNull(at: 6), row.text(at: 6))
            }
            let row = try #require(first)
            #expect(row.0 == 9_000_000_000)
            #expect(row.1 == -7)
            #expect(row.2 == 2.5)
            #expect(row.3 == "Ada ✓ 👩‍💻")
            #expect(row.4 == [0, 1, 254, 255])
            #expect(row.5 == true)
            #expect(row.6 == true)
            #expect(row.7 == nil)
            let second = try db.queryOne("SELECT small, flag, real, data FROM items WHERE id = ?", 2) {
                ($0.int(at: 0), $0.bool(at: 1), $0.double(at: 2), $0.blob(at: 3), $0.int64(at: 2))
            }
            #expect(second?.0 == 42)
            #expect(second?.1 == false)
            // NULL reads as 0 through the numeric accessors and nil through the others, as on SQLite.
            #expect(second?.2 == 0)
            #expect(second?.3 == nil)
            #expect(second?.4 == 0)
        }

        @Test func valueReadsEachColumnAsItsPostgreSQLType() throws {
            try db.run("INSERT INTO items (id, real, label, data) VALUES (?, ?, ?, ?)", 1, 0.5, "x", [UInt8]([7]))
            let values = try db.queryOne("SELECT id, real, label, data, note, true FROM items") { row in
                (0..<row.columnCount).map { row.value(at: $0) }
            }
            #expect(values == [.integer(1), .real(0.5), .text("x"), .blob([7]), .null, .integer(1)])
            let names = try db.queryOne("SELECT id, label AS name FROM items") { [$0.columnName(at: 0), $0.columnName(at: 1)] }
            #expect(names == ["id", "name"])
        }

        @Test func allByteValuesRoundTripAndEmptyBlobIsNotNull() throws {
            let every = (0...255).map { UInt8($0) }
            try db.run("INSERT INTO items (id, data) VALUES (?, ?)", 1, every)
            try db.run("INSERT INTO items (id, data) VALUES (?, ?)", 2, [UInt8]())
            try db.run("INSERT INTO items (id, data) VALUES (?, ?)", 3, [UInt8](repeating: 0, count: 3))
            let blobs = try db.query("SELECT data FROM items ORDER BY id") { $0.blob(at: 0) }
            #expect(blobs == [every, [], [0, 0, 0]])
            #expect(try db.queryOne("SELECT length(data) FROM items WHERE id = ?", 1) { $0.int(at: 0) } == 256)
            // The bytes compare equal on the server too: the parameter is a bytea there.
            #expect(try db.queryOne("SELECT id FROM items WHERE data = ?", every) { $0.int(at: 0) } == 1)
        }

        @Test func escapeFormatByteaDecodesToo() throws {
            try db.execute("SET bytea_output = 'escape'")
            let every = (0...255).map { UInt8($0) }
            try db.run("INSERT INTO items (id, data) VALUES (?, ?)", 1, every)
            #expect(try db.queryOne("SELECT data FROM items") { $0.blob(at: 0) } == every)
        }

        @Test func doublesRoundTripExactly() throws {
            let doubles: [Double] = [
                .pi, 0.1, -0.0, 1e300, -1e-300, .greatestFiniteMagnitude, .leastNonzeroMagnitude,
                .leastNormalMagnitude, 123_456_789.123_456_789, .infinity, -.infinity,
            ]
            for (index, value) in doubles.enumerated() {
                try db.run("INSERT INTO items (id, real) VALUES (?, ?)", index, value)
            }
            let read = try db.query("SELECT real FROM items ORDER BY id") { $0.double(at: 0) }
            #expect(read.map(\.bitPattern) == doubles.map(\.bitPattern))
            try db.run("INSERT INTO items (id, real) VALUES (?, ?)", 100, Double.nan)
            #expect(try db.queryOne("SELECT real FROM items WHERE id = ?", 100) { $0.double(at: 0) }?.isNaN == true)
        }

        @Test func integerExtremesRoundTrip() throws {
            try db.run("INSERT INTO items (id) VALUES (?)", Int64.min)
            try db.run("INSERT INTO items (id) VALUES (?)", Int64.max)
            #expect(try db.query("SELECT id FROM items ORDER BY id") { $0.int64(at: 0) } == [.min, .max])
        }

        @Test func textWithNULIsRefusedWithoutQuotingIt() throws {
            let error = #expect(throws: PostgreSQLError.self) {
                try db.run("INSERT INTO items (id, label) VALUES (?, ?)", 1, "secret\u{0}tail")
            }
            #expect(error?.sqlstate == "22021")
            #expect(error.map { !"\($0)".contains("secret") } == true)
            #expect(try db.count("items") == 0)
        }

        @Test func boolReadsIntegersAndPostgreSQLBooleans() throws {
            let read = try db.queryOne("SELECT true, false, 2, 0, NULL::boolean") { row in
                (0..<5).map { row.bool(at: $0) }
            }
            #expect(read == [true, false, true, false, false])
            // Bound as 0/1, a Bool also lands in a real boolean column.
            try db.execute("CREATE TABLE flags (id INTEGER PRIMARY KEY, on_call BOOLEAN NOT NULL)")
            try db.run("INSERT INTO flags VALUES (?, ?), (?, ?)", 1, true, 2, false)
            #expect(try db.query("SELECT on_call FROM flags ORDER BY id") { $0.bool(at: 0) } == [true, false])
        }

        @Test func arrayTakingVariantsBindTheSameWay() throws {
            let values: [SQLValue] = [1, "one", [0xFF], nil]
            #expect(try db.run("INSERT INTO items (id, label, data, note) VALUES (?, ?, ?, ?)", values: values) == 1)
            let rows = try db.query("SELECT label, data FROM items WHERE id = ? AND note IS NULL", values: [1]) {
                ($0.text(at: 0), $0.blob(at: 1))
            }
            #expect(rows.count == 1)
            #expect(rows.first?.0 == "one")
            #expect(rows.first?.1 == [0xFF])
            #expect(try db.queryOne("SELECT label FROM items WHERE id = ?", values: [.integer(2)]) { $0.text(at: 0) } == nil)
        }

        @Test func queryOneReturnsNilForNoRowAndTheFirstOfMany() throws {
            #expect(try db.queryOne("SELECT id FROM items") { $0.int(at: 0) } == nil)
            try db.run("INSERT INTO items (id) VALUES (?), (?)", 5, 6)
            #expect(try db.queryOne("SELECT id FROM items ORDER BY id DESC") { $0.int(at: 0) } == 6)
        }
    }
}
