import Foundation
import Glibc
import Testing
import TestSupport

extension Accounts {
    /// Presence held by streams on several instances over one database (two processes over
    /// one SQLite file here; the same rows serve instances over PostgreSQL): a user is
    /// online while any instance holds a stream, offline when the last one anywhere closes,
    /// and taken offline by the others when the instance holding the stream dies.
    @Suite struct PresenceAcrossInstances {
        private typealias Streams = Accounts.PresenceStreams

        private static func pair(_ extra: [String] = []) throws -> (AccountServer, AccountServer) {
            let first = try AccountServer(extra)
            let second = try AccountServer(
                extra, dataDirectory: first.dataDirectory, signingKey: first.signingKey, signingKeys: first.signingKeys, issuer: first.configuredIssuer
            )
            return (first, second)
        }

        /// Whether an instance's hold of `userID` is committed within 10 s.
        private static func becomesHeld(_ userID: String, _ server: AccountServer) throws -> Bool {
            let rows = try StoredRows(server)
            for _ in 0..<200 {
                if try rows.count("SELECT count(*) FROM presence_holds WHERE user_id = ?", userID) > 0 { return true }
                usleep(50_000)
            }
            return false
        }

        @Test func aUserStaysOnlineWhileAStreamIsOpenOnAnyInstance() throws {
            let (a, b) = try Self.pair()
            defer { a.stop(); b.stop() }
            let ada = try a.signUp("ada@example.com", "ada")
            let bob = try a.signUp("bob@example.com", "bob")
            var onA: PresenceEventStream? = try PresenceEventStream(a, token: ada.accessToken, watching: [bob.id])
            var onB: PresenceEventStream? = try PresenceEventStream(b, token: ada.accessToken, watching: [bob.id])
            #expect(onA?.head.status == 200 && onB?.head.status == 200)
            #expect(try Streams.becomes("online", b, ada.id, token: bob.accessToken))

            onA = nil
            usleep(300_000)
            #expect(try Streams.status(a, of: ada.id, token: bob.accessToken) == "online", "the stream on the other instance still holds her")
            #expect(try Streams.status(b, of: ada.id, token: bob.accessToken) == "online")

            onB = nil
            #expect(try Streams.becomes("offline", a, ada.id, token: bob.accessToken), "the last stream anywhere closed")
            _ = (onA, onB)
        }

        @Test func theUsersOfAnInstanceThatDiedGoOfflineThroughTheOthers() throws {
            // The presence timeout is 1 s, but an instance counts as dead only after three
            // sweeps (5 s apart) without a beat: so within about 15 to 20 s.
            let (a, b) = try Self.pair(["--presence-timeout", "1"])
            defer { a.stop(); b.stop() }
            let ada = try a.signUp("ada@example.com", "ada")
            let bob = try a.signUp("bob@example.com", "bob")
            let stream = try PresenceEventStream(a, token: ada.accessToken, watching: [bob.id])
            #expect(stream.head.status == 200)
            // Her sign-up left her online for a moment anyway: wait for A's hold itself, which
            // A commits just after the stream's answer. Killed before that, A never held her.
            #expect(try Self.becomesHeld(ada.id, a))
            #expect(try Streams.becomes("online", b, ada.id, token: bob.accessToken))

            let watcher = try PresenceEventStream(b, token: bob.accessToken, watching: [ada.id], timeout: 30)
            guard case .presence(ada.id, "online", _)? = try watcher.next() else { throw TestError("no online snapshot") }
            kill(a.process.process.processIdentifier, SIGKILL)
            _ = a.process.waitForExit()
            #expect(try Streams.status(b, of: ada.id, token: bob.accessToken) == "online", "held until the dead instance's holds are taken")
            let killed = Date()
            // Expected within about 20 s; a minute leaves room for a loaded machine.
            let deadline = killed.addingTimeInterval(60)
            // Her "online" from the instance that died may reach this one after the watcher's
            // snapshot (over PostgreSQL it travels by NOTIFY, behind the commit): skip it.
            var event = try watcher.nextPresence(before: deadline)
            for _ in 0..<3 {
                guard case .presence(ada.id, "online", _)? = event else { break }
                event = try watcher.nextPresence(before: deadline)
            }
            guard case .presence(ada.id, "offline", _)? = event else {
                throw TestError("no offline event from the survivor \(Int(Date().timeIntervalSince(killed))) s after the kill: \(String(describing: event))")
            }
            #expect(try Streams.status(b, of: ada.id, token: bob.accessToken) == "offline")
        }
    }
}
