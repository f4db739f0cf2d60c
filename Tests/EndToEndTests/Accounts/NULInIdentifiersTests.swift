import Foundation
import Testing
import TestSupport

extension Accounts {
    /// An id holding a NUL character (`%00`) names no one, on either database: PostgreSQL
    /// text cannot hold NUL, and looking one up there once failed with a 500.
    @Suite struct NULInIdentifiers {
        @Test func anIdWithANULIsUnknownWhereverARequestNamesOne() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            expectProblem(try server.call("GET", "/v1/presence/\(ada.id)%00", token: ada.accessToken), 404, "USER_NOT_FOUND")
            expectProblem(try server.call("GET", "/v1/users/\(ada.id)%00", token: ada.accessToken), 404, "USER_NOT_FOUND")
            expectProblem(try server.call("DELETE", "/v1/auth/sessions/\(try #require(ada.sessionID))%00", token: ada.accessToken), 404, "NOT_FOUND")
            let batch = try server.call("GET", "/v1/presence?userIds=\(ada.id)%00,\(ada.id)", token: ada.accessToken)
            #expect(batch.status == 200)
            #expect((batch["presences"] as? [[String: Any]])?.map { $0["userId"] as? String } == [ada.id], "only the id without the NUL: \(batch)")
        }
    }
}
