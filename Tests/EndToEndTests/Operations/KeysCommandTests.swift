import Foundation
import Glibc
import Testing
import TestSupport

extension Accounts {
    /// `latchkey keys` beside a running server that keeps its keys in the data directory:
    /// a rotated key signs within seconds while older tokens stay valid; a retired key's
    /// tokens are refused within seconds, and a refresh gets a token of the signing key.
    @Suite struct KeysCommand {
        static func keys(_ server: AccountServer) throws -> [[String: Any]] {
            let listed = try AdminCommands.run(["keys", "list", "--json", "--data-dir", server.dataDirectory])
            #expect(listed.status == 0, "\(listed.output)")
            return try #require(try AdminCommands.json(listed.output) as? [[String: Any]])
        }

        static func kid(_ token: String) -> String? {
            JWTParts(token)?.header["kid"] as? String
        }

        /// Polls `condition` every 100 ms for up to 6 s (the server looks every 2 s).
        static func eventually(_ condition: () throws -> Bool) rethrows -> Bool {
            for _ in 0..<60 {
                if try condition() { return true }
                usleep(100_000)
            }
            return false
        }

        @Test func rotationSignsWithTheNewKeyAndRetirementEndsWhatTheOldOneSigned() throws {
            let server = try AccountServer(signingKeys: AccountServer.keyFileInDataDirectory)
            defer { server.stop() }
            let data = ["--data-dir", server.dataDirectory]
            let ada = try server.signUp("ada@example.com", "ada")
            let original = try #require(try Self.keys(server).first)
            #expect(Set(original.keys) == ["kid", "createdAt", "signing"])
            #expect(original["signing"] as? Bool == true)
            let oldKID = try #require(original["kid"] as? String)
            #expect(Self.kid(ada.accessToken) == oldKID)

            #expect(try AdminCommands.run(["keys", "rotate"] + data).status == 0)
            let rotated = try Self.keys(server)
            #expect(rotated.count == 2 && rotated[1]["kid"] as? String == oldKID && rotated[1]["signing"] as? Bool == false)
            let newKID = try #require(rotated[0]["kid"] as? String)
            #expect(try Self.eventually { Self.kid(try server.logIn("ada@example.com").accessToken) == newKID }, "new tokens carry the new kid")
            #expect(try server.me(ada.accessToken).status == 200, "a token of the older key stays valid")
            let table = try AdminCommands.run(["keys", "list"] + data).output
            #expect(table.hasPrefix("KID") && table.contains(newKID) && table.contains(oldKID))

            let signing = try AdminCommands.run(["keys", "retire", newKID] + data)
            #expect(signing.status == 2 && signing.output.hasPrefix("latchkey: \(newKID) signs new tokens; rotate first"))
            let unknown = try AdminCommands.run(["keys", "retire", "no-such-kid"] + data)
            #expect(unknown.status == 1 && unknown.output == "latchkey: no signing key no-such-kid")

            #expect(try AdminCommands.run(["keys", "retire", oldKID] + data).status == 0)
            #expect(try Self.keys(server).map { $0["kid"] as? String } == [newKID])
            #expect(try Self.eventually { try server.me(ada.accessToken).status == 401 }, "the retired key's token is refused")
            expectProblem(try server.me(ada.accessToken), 401, "INVALID_TOKEN")
            let refreshed = try server.refresh(ada.refreshToken)
            #expect(refreshed.status == 200)
            let token = try #require(refreshed["accessToken"] as? String)
            #expect(Self.kid(token) == newKID)
            #expect(try server.me(token).status == 200)

            let events = try AuditLogEntries.audit(server).compactMap { $0["event"] as? String }
            #expect(events.contains("admin_key_rotated") && events.contains("admin_key_retired"))
        }

        /// The new key survives a restart: the server reads the rewritten file.
        @Test func aRotatedKeyringOutlivesARestart() throws {
            let server = try AccountServer(signingKeys: AccountServer.keyFileInDataDirectory)
            #expect(try AdminCommands.run(["keys", "rotate", "--data-dir", server.dataDirectory]).status == 0)
            let ring = try Self.keys(server).compactMap { $0["kid"] as? String }
            let again = try server.restarted()
            defer { again.stop() }
            #expect(try Self.keys(again).compactMap { $0["kid"] as? String } == ring)
            #expect(Self.kid(try again.signUp("ada@example.com", "ada").accessToken) == ring.first)
        }

        @Test func keysFromTheSettingAreNotRotatedHere() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let result = try AdminCommands.run(["keys", "rotate", "--data-dir", server.dataDirectory, "--signing-keys", server.signingKeys])
            #expect(result.status == 2 && result.output.hasPrefix("latchkey: the keys come from the signingKeys setting"))
        }
    }
}
