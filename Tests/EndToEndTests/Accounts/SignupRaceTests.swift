import Foundation
import Testing
import TestSupport

extension Accounts {
    /// Signup is one transaction: people racing for one display name or one address get
    /// exactly one winner, and every loser leaves nothing behind.
    @Suite struct SignupRace {
        static let racers = 16

        /// Fires all signups at once; returns each racer's status and code.
        static func race(_ server: AccountServer, _ body: @escaping @Sendable (Int) -> (email: String, displayName: String)) -> [(status: Int, code: String?)] {
            let port = server.port
            return concurrently(racers) { index in
                let (email, displayName) = body(index)
                do {
                    let response = try call(port: port, "POST", "/v1/auth/signup",
                                            body: .json(["email": email, "password": AccountServer.password, "displayName": displayName]))
                    return (response.status, response.code)
                } catch {
                    return (-1, "\(error)")
                }
            }
        }

        @Test func racersForOneDisplayNameGetOneWinnerAndTheLosersLeaveNothing() throws {
            let server = try AccountServer()
            defer { server.stop() }
            // Each racer spells the name in its own case: the claim is case-insensitive.
            let spellings = ["Contested.Name", "contested.name", "CONTESTED.NAME", "Contested.name"]
            let results = Self.race(server) { ("racer\($0)@example.com", spellings[$0 % spellings.count]) }

            let winners = results.indices.filter { results[$0].status == 201 }
            #expect(winners.count == 1, "exactly one 201: \(results)")
            for (index, result) in results.enumerated() where result.status != 201 {
                #expect(result.status == 409 && result.code == "DISPLAY_NAME_TAKEN", "racer \(index): \(result)")
            }
            let rows = try StoredRows(server)
            for table in ["users", "display_names", "presence", "sessions"] {
                #expect(try rows.total(table) == winners.count, "\(table) holds the winner's row only")
            }
            for index in results.indices where !winners.contains(index) {
                let login = try server.call("POST", "/v1/auth/login", json: ["email": "racer\(index)@example.com", "password": AccountServer.password])
                expectProblem(login, 401, "INVALID_LOGIN_CREDENTIALS", "a loser has no account")
                // The loser's address is free: it signs up again under another name.
                let again = try server.call("POST", "/v1/auth/signup",
                                            json: ["email": "racer\(index)@example.com", "password": AccountServer.password, "displayName": "second_try_\(index)"])
                #expect(again.status == 201, "racer \(index) signs up afterwards: \(again)")
            }
        }

        @Test func racersForOneEmailGetOneWinnerAndTheLosersNamesStayFree() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let spellings = ["same@example.com", "SAME@example.com", "Same@Example.com", "same@EXAMPLE.COM"]
            let results = Self.race(server) { (spellings[$0 % spellings.count], "racer_name_\($0)") }

            let winners = results.indices.filter { results[$0].status == 201 }
            #expect(winners.count == 1, "exactly one 201: \(results)")
            for (index, result) in results.enumerated() where result.status != 201 {
                #expect(result.status == 409 && result.code == "EMAIL_EXISTS", "racer \(index): \(result)")
            }
            let rows = try StoredRows(server)
            for table in ["users", "display_names", "presence", "sessions"] {
                #expect(try rows.total(table) == winners.count, "\(table) holds the winner's row only")
            }
            for index in results.indices where !winners.contains(index) {
                let name = "racer_name_\(index)"
                let check = try server.availability(name)
                #expect(check.status == 200 && check["available"] as? Bool == true, "\(name) is still free: \(check)")
                let again = try server.call("POST", "/v1/auth/signup",
                                            json: ["email": "other\(index)@example.com", "password": AccountServer.password, "displayName": name])
                #expect(again.status == 201, "\(name) can be claimed afterwards: \(again)")
            }
        }
    }
}
