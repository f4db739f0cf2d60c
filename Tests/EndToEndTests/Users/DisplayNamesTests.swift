import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `GET /v1/display-names/{name}`: the availability check, without auth, with the same
    /// rules and reasons as signup; the reserved list comes from the configuration.
    @Suite struct DisplayNames {
        static func expectAvailability(
            _ server: AccountServer, _ name: String, available: Bool, reason: String? = nil, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let response = try server.availability(name)
            #expect(response.status == 200, "\(name): \(response)", sourceLocation: sourceLocation)
            expectCommonHeaders(response, name, sourceLocation: sourceLocation)
            #expect(response["displayName"] as? String == name, "the name is echoed: \(response)", sourceLocation: sourceLocation)
            #expect(response["available"] as? Bool == available, "\(name): \(response)", sourceLocation: sourceLocation)
            if let reason {
                #expect(response["reason"] as? String == reason, "\(name): \(response)", sourceLocation: sourceLocation)
            } else {
                #expect(response["reason"] == nil || response["reason"] is NSNull, "no reason when available: \(response)", sourceLocation: sourceLocation)
            }
        }

        @Test func theCheckAnswersAvailabilityAndTheReasonWithoutAuth() throws {
            let server = try AccountServer()
            defer { server.stop() }
            try server.signUp("ada@example.com", "Ada.Lovelace")
            let rows: [(String, Bool, String?)] = [
                ("fresh.name", true, nil),
                ("abc", true, nil),
                (String(repeating: "z", count: 30), true, nil),
                ("Ada.Lovelace", false, "TAKEN"),
                ("ada.lovelace", false, "TAKEN"),
                ("ADA.LOVELACE", false, "TAKEN"),
                ("admin", false, "RESERVED"),
                ("Admin", false, "RESERVED"),
                ("SECURITY", false, "RESERVED"),
                ("Latchkey", false, "RESERVED"),
                ("ab", false, "TOO_SHORT"),
                (String(repeating: "z", count: 31), false, "TOO_LONG"),
                ("ada-l", false, "INVALID_CHARACTERS"),
                ("ada$", false, "INVALID_CHARACTERS"),
                (".ada", false, "LEADING_OR_TRAILING_PERIOD"),
                ("ada.", false, "LEADING_OR_TRAILING_PERIOD"),
                ("ada..l", false, "CONSECUTIVE_PERIODS"),
            ]
            for (name, available, reason) in rows {
                try Self.expectAvailability(server, name, available: available, reason: reason)
            }
            let spaced = try server.availability("ada%20lovelace")
            #expect(spaced["available"] as? Bool == false && spaced["reason"] as? String == "INVALID_CHARACTERS", "\(spaced)")
        }

        @Test func theReservedListComesFromTheConfiguration() throws {
            let server = try AccountServer(["--reserved-display-names", "bob,Alice"])
            defer { server.stop() }
            try Self.expectAvailability(server, "BOB", available: false, reason: "RESERVED")
            try Self.expectAvailability(server, "alice", available: false, reason: "RESERVED")
            try Self.expectAvailability(server, "admin", available: true)
            expectProblem(try server.call("POST", "/v1/auth/signup", json: ["email": "b@example.com", "password": AccountServer.password, "displayName": "Bob"]),
                          409, "DISPLAY_NAME_TAKEN", field: "displayName", reason: "RESERVED")
            try server.signUp("a@example.com", "admin")
            try Self.expectAvailability(server, "ADMIN", available: false, reason: "TAKEN")
        }

        @Test func availabilityFollowsClaimsAsTheyHappen() throws {
            let server = try AccountServer()
            defer { server.stop() }
            try Self.expectAvailability(server, "Grace.H", available: true)
            let grace = try server.signUp("grace@example.com", "Grace.H")
            try Self.expectAvailability(server, "grace.h", available: false, reason: "TAKEN")
            _ = try server.call("DELETE", "/v1/users/me", json: ["password": grace.password], token: grace.accessToken)
            try Self.expectAvailability(server, "grace.h", available: true)
        }
    }
}
