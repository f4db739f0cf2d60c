import Foundation
@testable import LatchkeyCore
import Synchronization
import Testing

@Suite struct PresenceBusTests {
    final class Received: Sendable {
        private let items = Mutex<[String]>([])
        func add(_ item: String) { items.withLock { $0.append(item) } }
        var all: [String] { items.withLock { $0 } }
    }

    static func presence(_ userID: String, _ status: PresenceStatus) -> Presence {
        Presence(userID: userID, status: status, lastSeen: 1)
    }

    @Test func aChangeReachesOnlyTheWatchersOfThatUserUntilTheyCancel() {
        let bus = InProcessPresenceBus()
        let ada = Received(), bob = Received(), both = Received()
        let adaWatch = bus.subscribe(to: ["ada"]) { ada.add("\($0.userID):\($0.status.rawValue)") }
        _ = bus.subscribe(to: ["bob"]) { bob.add("\($0.userID):\($0.status.rawValue)") }
        let bothWatch = bus.subscribe(to: ["ada", "bob", "ada"]) { both.add("\($0.userID):\($0.status.rawValue)") }
        bus.publish(Self.presence("ada", .away))
        bus.publish(Self.presence("cy", .online))
        bus.publish(Self.presence("bob", .offline))
        #expect(ada.all == ["ada:away"])
        #expect(bob.all == ["bob:offline"])
        #expect(both.all == ["ada:away", "bob:offline"], "a user named twice is delivered once")

        adaWatch.cancel()
        bothWatch.cancel()
        bothWatch.cancel()  // harmless
        bus.publish(Self.presence("ada", .online))
        #expect(ada.all == ["ada:away"] && both.all.count == 2)
        #expect(bus.watchedUsers == 1, "only bob is still watched: cancelled users leave no entry behind")
    }

    @Test func publishersAndWatchersOnManyThreadsAtOnce() async {
        let bus = InProcessPresenceBus()
        let received = Received()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<8 {
                group.addTask {
                    for round in 0..<200 {
                        let subscription = bus.subscribe(to: ["user\(index % 4)"]) { received.add($0.userID) }
                        bus.publish(Self.presence("user\(round % 4)", .online))
                        subscription.cancel()
                    }
                }
            }
        }
        #expect(bus.watchedUsers == 0)
        #expect(!received.all.isEmpty)
    }

    @Test func aCommittedStatusIsPublishedToItsWatchers() async throws {
        let folder = NSTemporaryDirectory() + "latchkey-presence-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let database = try Database(path: folder + "/latchkey.sqlite")
        guard case .success(let email) = EmailRules.normalize("ada@example.com") else { return }
        let user = try await database.write { db in
            try AccountStore.insertUser(id: "ada", email: email, passwordHash: "x", displayName: "ada", now: 1, on: db)
            return try AccountStore.user(id: "ada", on: db)!
        }
        let bus = InProcessPresenceBus()
        let service = PresenceService(database: database, policy: AccountsPolicy(issuer: "i", reservedDisplayNames: ReservedDisplayNames([])), bus: bus)
        let received = Received()
        let watch = bus.subscribe(to: ["ada"]) { received.add($0.status.rawValue) }
        defer { watch.cancel() }
        let answer = try await service.set(.away, for: Authenticated(userID: "ada", sessionID: "s", user: user))
        #expect(answer.status == .away)
        #expect(received.all == ["away"])
        let missing = Authenticated(userID: "nobody", sessionID: "s", user: user)
        await #expect(throws: AccessError.sessionRevoked) { try await service.set(.online, for: missing) }
        #expect(received.all == ["away"], "nothing is published for a change that did not commit")
    }
}
