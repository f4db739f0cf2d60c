import Foundation
@testable import LatchkeyCore
import SQLValues
import Testing

/// The stores' connection, row and values over SQLite: what a store binds comes back as
/// it went in, and the statements that differ by dialect keep SQLite's behaviour.
@Suite struct StoreConnectionTests {
    @Test func everyBindableTypeRoundTripsThroughTheRowAccessors() throws {
        let db = try StoreConnection.temporary()
        try db.execute("CREATE TABLE v (id INTEGER PRIMARY KEY, value)")
        let absent: String? = nil
        let present: Int64? = -9
        let values: [(any SQLBindable)?] = ["text", 7, Int64(1) << 40, true, 1.5, [0, 255] as [UInt8], absent, present, SQLValue.blob([]), nil]
        for (id, value) in values.enumerated() { try db.run("INSERT INTO v (id, value) VALUES (?, ?)", id, value) }
        func read(_ id: Int, _ reader: (StoreRow) -> SQLValue) throws -> SQLValue? {
            try db.queryOne("SELECT value FROM v WHERE id = ?", id) { reader($0) }
        }
        #expect(try read(0) { .text($0.text(at: 0) ?? "?") } == .text("text"))
        #expect(try read(1) { .integer(Int64($0.int(at: 0))) } == .integer(7))
        #expect(try read(2) { .integer($0.int64(at: 0)) } == .integer(1 << 40))
        #expect(try read(3) { .integer($0.bool(at: 0) ? 1 : 0) } == .integer(1))
        #expect(try read(3) { .integer($0.int64(at: 0)) } == .integer(1), "a boolean is stored as the integer 1")
        #expect(try read(4) { .real($0.double(at: 0)) } == .real(1.5))
        #expect(try read(5) { .blob($0.blob(at: 0) ?? []) } == .blob([0, 255]))
        #expect(try read(6) { $0.isNull(at: 0) ? .null : .text($0.text(at: 0) ?? "") } == .null)
        #expect(try read(7) { .integer($0.int64(at: 0)) } == .integer(-9))
        #expect(try read(8) { $0.blob(at: 0).map(SQLValue.blob) ?? .null } == .blob([]), "an empty blob is not NULL")
        #expect(try read(9) { $0.isNull(at: 0) ? .null : .integer(0) } == .null)
        #expect(try db.query("SELECT id FROM v WHERE id < ? ORDER BY id", 3) { $0.int(at: 0) } == [0, 1, 2])
        #expect(try db.queryOne("SELECT id FROM v WHERE id = ?", 99) { $0.int(at: 0) } == nil)
    }

    @Test func aTransactionThatThrowsLeavesNothingBehind() throws {
        struct Stop: Error {}
        let db = try StoreConnection.temporary()
        try db.execute("CREATE TABLE t (x INTEGER)")
        #expect(throws: Stop.self) {
            try db.transaction {
                try db.run("INSERT INTO t (x) VALUES (?)", 1)
                throw Stop()
            }
        }
        try db.transaction { try db.run("INSERT INTO t (x) VALUES (?)", 2) }
        #expect(try db.query("SELECT x FROM t") { $0.int(at: 0) } == [2])
    }

    /// On SQLite, sessions and users created in the same second list in the order they
    /// were made (rowid), not in the order of their random ids.
    @Test func tiesWithinASecondListInTheOrderTheRowsWereMade() async throws {
        let path = NSTemporaryDirectory() + "latchkey-store-\(UUID().uuidString).sqlite"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let database = try Database(path: path)
        let pictures = ProfilePictures(database: database, root: path + "-pictures", publicURL: "https://auth.example.com")
        let ids = ["f0", "a0", "c0"]
        try await database.write { db in
            for (index, id) in ids.enumerated() {
                let email = try EmailRules.normalize("user\(index)@example.com").get()
                try AccountStore.insertUser(id: id, email: email, passwordHash: "x", displayName: "user\(index)", now: 1000, on: db)
                try SessionStore.create(id: "s-" + id, userID: "f0", userAgent: nil, methods: .password, now: 1000, on: db)
            }
        }
        let administration = Administration(
            database: database, pictures: pictures, policy: AccountsPolicy(issuer: "https://issuer.test", reservedDisplayNames: ReservedDisplayNames([]))
        )
        #expect(try administration.users().map(\.id) == ids)
        let owner = try #require(try administration.user("f0"))
        #expect(try administration.sessions(of: owner).map(\.id) == ids.map { "s-" + $0 })
    }
}
