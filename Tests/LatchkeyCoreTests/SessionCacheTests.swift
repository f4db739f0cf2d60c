import CLinuxShims
import Foundation
@testable import LatchkeyCore
import Testing

/// The bearer check's copy of active sessions (`SessionCache`): it answers without a read
/// until an account event drops the user, never keeps a read older than a drop, never
/// refuses from a stale copy, and holds nothing while the feed of events is down.
@Suite struct SessionCacheTests {
    private let policy = AccountsPolicy(issuer: "https://issuer.test", reservedDisplayNames: ReservedDisplayNames([]))

    private func signIn(cache: SessionCache) async throws -> (SignedInFixture, AccessTokenVerifier) {
        let fixture = try await SignedInFixture(policy: policy)
        return (fixture, AccessTokenVerifier(keys: fixture.issuer.keys, policy: policy, sessions: cache))
    }

    private static func session(_ id: String, of userID: String, lastUsedAt: Int64 = 1000) -> Session {
        Session(id: id, userID: userID, userAgent: nil, createdAt: 1000, lastUsedAt: lastUsedAt, revokedAt: nil, methods: .password)
    }

    private func user(_ id: String) -> User {
        User(id: id, email: "\(id)@example.com", emailVerified: false, displayName: nil, photoURL: nil, createdAt: 1000, disabled: false)
    }

    @Test func aHeldSessionAnswersWithoutARead_untilItsUserIsDropped() async throws {
        let cache = SessionCache(capacity: 1000)
        let (signedIn, verifier) = try await signIn(cache: cache)
        defer { signedIn.remove() }
        _ = try verifier.verify(authorization: signedIn.header, reader: signedIn.reader, now: 1001)
        #expect(cache.count == 1)

        // Revoked behind the cache's back (no account event): the copy still answers, which
        // shows the check read nothing...
        try await signedIn.database.write { db in try SessionStore.revoke(signedIn.sessionID, now: 1002, on: db) }
        #expect(try verifier.verify(authorization: signedIn.header, reader: signedIn.reader, now: 1003).userID == "u1")
        // ... and once an event names the user, the next check reads the revocation.
        cache.drop(userID: "u1")
        #expect(throws: AccessError.sessionRevoked) {
            try verifier.verify(authorization: signedIn.header, reader: signedIn.reader, now: 1004)
        }
        #expect(cache.count == 0)
    }

    @Test func aCopyThatLooksIdleIsReadAgain_notRefused() async throws {
        let cache = SessionCache(capacity: 1000)
        let (signedIn, verifier) = try await signIn(cache: cache)
        defer { signedIn.remove() }
        _ = try verifier.verify(authorization: signedIn.header, reader: signedIn.reader, now: 1001)
        // A refresh (through any instance) used the session since the copy was taken, and
        // the copy is past a 100 s idle timeout where the row is not.
        try await signedIn.database.write { db in try db.run("UPDATE sessions SET last_used_at = 1100 WHERE id = ?", signedIn.sessionID) }
        let shortIdle = AccountsPolicy(sessionIdleTimeout: 100, issuer: policy.issuer, reservedDisplayNames: ReservedDisplayNames([]))
        let idleVerifier = AccessTokenVerifier(keys: signedIn.issuer.keys, policy: shortIdle, sessions: cache)
        #expect(try idleVerifier.verify(authorization: signedIn.header, reader: signedIn.reader, now: 1150).userID == "u1")
    }

    @Test func aReadThatBeganBeforeADropIsNotKept() {
        let cache = SessionCache(capacity: 1000)
        let ticket = cache.ticket(for: "u1")
        cache.drop(userID: "u1")
        cache.store(Self.session("s1", of: "u1"), of: user("u1"), ticket: ticket)
        #expect(cache.find(userID: "u1", sessionID: "s1") == nil)

        cache.store(Self.session("s1", of: "u1"), of: user("u1"), ticket: cache.ticket(for: "u1"))
        #expect(cache.find(userID: "u1", sessionID: "s1")?.user.id == "u1")
    }

    @Test func whileTheFeedIsDownNothingIsHeldOrKept() {
        let cache = SessionCache(capacity: 1000)
        cache.store(Self.session("s1", of: "u1"), of: user("u1"), ticket: cache.ticket(for: "u1"))
        let before = cache.ticket(for: "u2")

        cache.suspend()
        #expect(cache.find(userID: "u1", sessionID: "s1") == nil)
        #expect(cache.ticket(for: "u1") == nil)
        cache.store(Self.session("s2", of: "u2"), of: user("u2"), ticket: before)

        cache.resume()
        #expect(cache.count == 0)
        cache.store(Self.session("s2", of: "u2"), of: user("u2"), ticket: before)
        #expect(cache.count == 0, "a read begun before the feed broke may have missed an event")
    }

    @Test func idsAreComparedAsBytes() {
        let cache = SessionCache(capacity: 1000)
        cache.store(Self.session("s1", of: "abK"), of: user("abK"), ticket: cache.ticket(for: "abK"))
        #expect(cache.find(userID: "ab\u{212A}", sessionID: "s1") == nil)
        #expect(cache.find(userID: "abK", sessionID: "s\u{0031}")?.user.id == "abK")
    }

    @Test func theCapacityBoundsWhatIsHeld() {
        let cache = SessionCache(capacity: 640)
        for index in 0..<5000 {
            let userID = "u\(index)"
            cache.store(Self.session("s\(index)", of: userID), of: user(userID), ticket: cache.ticket(for: userID))
        }
        #expect(cache.count <= 640 * 5 / 4)
        #expect(cache.count > 0)
    }

    /// The figure README states: the heap 100,000 sessions of 100,000 users take (ids of
    /// the server's own length, a display name, an address and a picture URL each): 59 MiB,
    /// and 94 MiB with a body each, on this build. Measured in a process of its own (an exit
    /// test): the heap counter is the whole process's, and beside the other suites their
    /// allocations counted too.
    @Test func aHundredThousandSessionsFitInTheStatedMemory() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let cache = SessionCache(capacity: SessionCache.defaultCapacity)
            let before = mallinfo2().uordblks
            for index in 0..<100_000 {
                let userID = String(format: "usr_%018d", index)
                let user = User(
                    id: userID, email: "someone.\(index)@example.com", emailVerified: true, displayName: "name_\(index)",
                    photoURL: "https://auth.example.com/files/profile_pictures/\(userID)/0123456789abcdef.jpg", createdAt: 1000, disabled: false
                )
                cache.store(Self.session(String(format: "ses_%018d", index), of: userID), of: user, ticket: cache.ticket(for: userID))
            }
            let bytes = mallinfo2().uordblks - before
            print("SessionCache: 100,000 sessions hold \(bytes / 1_048_576) MiB")
            // Each user asks for GET /v1/users/me once: its body is kept with the copy (`UserMemo`).
            for index in 0..<100_000 {
                let userID = String(format: "usr_%018d", index)
                let held = cache.find(userID: userID, sessionID: String(format: "ses_%018d", index))
                _ = held?.memo.body { Self.meBody(of: held!.user) }
            }
            let withBodies = mallinfo2().uordblks - before
            print("SessionCache: with a GET /v1/users/me body each, \(withBodies / 1_048_576) MiB")
            guard cache.count == 100_000, withBodies < 128 * 1_048_576 else { exit(1) }
        }
        print(String(decoding: result?.standardOutputContent ?? [], as: UTF8.self), terminator: "")
    }

    /// A body as long as the API's for these users (`JSONResponses.user`).
    private static func meBody(of user: User) -> [UInt8] {
        Array(
            #"{"id":"\#(user.id)","email":"\#(user.email ?? "")","emailVerified":true,"displayName":"\#(user.displayName ?? "")","photoURL":"\#(user.photoURL ?? "")","createdAt":"1970-01-01T00:16:40Z"}"#.utf8
        )
    }

    /// The memo holds what the API made of one version of the user: kept while that copy
    /// is, made once, and begun again when a read brings a different user or a drop ends it.
    @Test func aUsersMemoLastsAsLongAsThatVersionOfTheUser() {
        let cache = SessionCache(capacity: 1000)
        cache.store(Self.session("s1", of: "u1"), of: user("u1"), ticket: cache.ticket(for: "u1"))
        let first = cache.find(userID: "u1", sessionID: "s1")?.memo
        #expect(first?.body { Array("first".utf8) } == Array("first".utf8))
        #expect(first?.body { Array("made again".utf8) } == Array("first".utf8))

        // The same user read again (another session of theirs): the memo stays.
        cache.store(Self.session("s2", of: "u1"), of: user("u1"), ticket: cache.ticket(for: "u1"))
        #expect(cache.find(userID: "u1", sessionID: "s1")?.memo === first)

        // A read that brings the user changed: what was made from the old copy is gone.
        let renamed = User(id: "u1", email: "u1@example.com", emailVerified: false, displayName: "renamed", photoURL: nil, createdAt: 1000, disabled: false)
        cache.store(Self.session("s2", of: "u1"), of: renamed, ticket: cache.ticket(for: "u1"))
        let second = cache.find(userID: "u1", sessionID: "s1")?.memo
        #expect(second != nil && second !== first)
        #expect(second?.body { Array("second".utf8) } == Array("second".utf8))

        cache.drop(userID: "u1")
        #expect(cache.find(userID: "u1", sessionID: "s1") == nil)
        cache.store(Self.session("s1", of: "u1"), of: renamed, ticket: cache.ticket(for: "u1"))
        #expect(cache.find(userID: "u1", sessionID: "s1")?.memo.body { Array("third".utf8) } == Array("third".utf8))
    }
}
