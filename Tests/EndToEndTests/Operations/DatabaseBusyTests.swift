import Foundation
import SQLite
import Testing
import TestSupport

extension Accounts {
    /// When the database stays locked past its busy timeout (another process holding a
    /// write lock: a backup tool, an operator's sqlite3 shell), a write is shed with 503
    /// and `Retry-After`, a condition a client retries, not a 500 that reads as a bug.
    @Suite struct DatabaseBusy {
        @Test func aWriteThatFindsTheDatabaseLockedIsA503WithRetryAfter() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let account = try server.signUp("busy@example.com", "busy.bee")
            let holder = try Connection(path: server.databasePath, mode: .readWrite)
            try holder.execute("BEGIN IMMEDIATE")
            let answer = try server.call("PATCH", "/v1/users/me", json: ["displayName": "still.busy"], token: account.accessToken)
            try holder.execute("ROLLBACK")
            #expect(answer.status == 503)
            #expect(answer["code"] as? String == "SERVICE_UNAVAILABLE")
            #expect(answer.header("Retry-After") == "1")
            // Once the lock is gone the same write goes through.
            let retried = try server.call("PATCH", "/v1/users/me", json: ["displayName": "still.busy"], token: account.accessToken)
            #expect(retried.status == 200)
        }
    }
}
