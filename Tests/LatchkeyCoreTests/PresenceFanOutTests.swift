import Foundation
@testable import LatchkeyCore
import Synchronization
import Testing

@Suite struct PresenceFanOutTests {
    final class SilentWatcher: PresenceWatcher {
        func deliver(_ presence: Presence) {}
        func keepAlive() {}
        func end() {}
    }

    /// What the fan-out was handed: per call, the user and how many watchers.
    final class RecordingFanOut: PresenceFanOut {
        private let calls = Mutex<[String]>([])
        var all: [String] { calls.withLock { $0 } }

        func deliver(_ presence: Presence, to watchers: [any PresenceWatcher]) {
            calls.withLock { $0.append("\(presence.userID):\(presence.status.rawValue)x\(watchers.count)") }
        }

        func keepAlive(_ watchers: [any PresenceWatcher]) {
            calls.withLock { $0.append("keepalive x\(watchers.count)") }
        }
    }

    /// Twenty streams of twenty sessions watch ada: the bus holds one subscription for
    /// her, and her change reaches the fan-out once, with all twenty watchers.
    @Test func aChangeReachesEveryWatcherOfItsUserInOneCallOverOneSubscription() async throws {
        let folder = NSTemporaryDirectory() + "latchkey-fan-out-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try Database(path: folder + "/latchkey.sqlite")
        guard case .success(let email) = EmailRules.normalize("ada@example.com") else { return }
        let ada = try await database.write { db in
            try AccountStore.insertUser(id: "ada", email: email, passwordHash: "x", displayName: "ada", now: 1, on: db)
            return try AccountStore.user(id: "ada", on: db)!
        }
        let bus = InProcessPresenceBus()
        let service = PresenceService(database: database, policy: AccountsPolicy(issuer: "i", reservedDisplayNames: ReservedDisplayNames([])), bus: bus)
        let fanOut = RecordingFanOut()
        service.streams.deliverChanges(through: fanOut)
        var ids: [UInt64] = []
        for index in 0..<20 {
            // Watchers with no account here: their own online goes to no one watching them.
            let caller = Authenticated(userID: "watcher\(index)", sessionID: "session\(index)", user: ada)
            ids.append(try #require(service.streams.register(SilentWatcher(), for: caller, watching: ["ada", "ada"])))
        }
        #expect(bus.watchedUsers == 1 && service.streams.watchedUsers == 1, "one subscription for ada, not one per stream")

        bus.publish(Presence(userID: "ada", status: .away, lastSeen: 2))
        #expect(fanOut.all.filter { $0.hasPrefix("ada:") } == ["ada:awayx20"])

        for id in ids.prefix(19) { service.streams.closed(id) }
        bus.publish(Presence(userID: "ada", status: .online, lastSeen: 3))
        #expect(fanOut.all.filter { $0.hasPrefix("ada:") } == ["ada:awayx20", "ada:onlinex1"])
        service.streams.closed(ids[19])
        #expect(bus.watchedUsers == 0 && service.streams.watchedUsers == 0, "the last stream of ada's watchers cancels her subscription")
        await service.streams.stopAll()
    }
}
