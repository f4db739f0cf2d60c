import Foundation
@testable import LatchkeyCore
import PostgreSQL
import Synchronization
import Testing
import TestSupport

/// The presence bus across instances: two buses over one PostgreSQL database stand for
/// two instances.
@Suite struct ListenNotifyPresenceBusTests {
    final class Received: Sendable {
        private let items = Mutex<[String]>([])
        func add(_ presence: Presence) { items.withLock { $0.append("\(presence.userID):\(presence.status.rawValue):\(presence.lastSeen)") } }
        var all: [String] { items.withLock { $0 } }

        /// Polls (10 ms apart, at most `seconds`) until `item` arrived.
        func wait(for item: String, seconds: Double = 5) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while !all.contains(item), Date() < deadline { usleep(10_000) }
            return all.contains(item)
        }
    }

    @Test func aChangePublishedOnOneInstanceReachesTheWatchersOfEveryInstanceOnce() throws {
        let database = try TestDatabase()
        defer { database.drop() }
        let url = database.url
        let first = try ListenNotifyPresenceBus { try PostgreSQL.Connection(url: url) }
        let second = try ListenNotifyPresenceBus { try PostgreSQL.Connection(url: url) }
        defer { first.stop(); second.stop() }
        let here = Received(), there = Received(), elsewhere = Received()
        _ = first.subscribe(to: ["ada", "user with spaces"]) { here.add($0) }
        _ = second.subscribe(to: ["ada", "user with spaces"]) { there.add($0) }
        _ = second.subscribe(to: ["bob"]) { elsewhere.add($0) }

        // Both listen once built: the first change published is heard.
        first.publish(Presence(userID: "ada", status: .online, lastSeen: 1000))
        second.publish(Presence(userID: "user with spaces", status: .offline, lastSeen: 1001))
        #expect(there.wait(for: "ada:online:1000"), "from the other instance")
        #expect(here.wait(for: "user with spaces:offline:1001"), "from the other instance, a user id with spaces whole")
        #expect(here.all.contains("ada:online:1000") && there.all.contains("user with spaces:offline:1001"), "at once to the publisher's own")
        usleep(500_000)
        #expect(here.all.filter { $0 == "ada:online:1000" }.count == 1, "the publisher's own watchers get it once, not again from the database")
        #expect(there.all.filter { $0 == "user with spaces:offline:1001" }.count == 1)
        #expect(elsewhere.all.isEmpty, "only the watchers of that user")
    }
}
