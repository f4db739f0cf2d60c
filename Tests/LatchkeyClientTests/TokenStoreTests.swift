import Foundation
import LatchkeyClient
import Testing
import TestSupport

/// The token stores and the bytes they keep.
@Suite struct TokenStoreTests {
    static let session = StoredSession(
        accessToken: "header.payload.signature", refreshToken: "lk1.opaque",
        accessTokenExpiresAt: Date(timeIntervalSince1970: 1_800_000_000), refreshAfter: Date(timeIntervalSince1970: 1_799_999_940),
        user: User(
            id: "u1", email: "ada@example.com", emailVerified: true, displayName: "ada",
            photoURL: URL(string: "https://example.com/ada.png"), createdAt: Date(timeIntervalSince1970: 1_700_000_000)))

    static func mode(_ path: String) throws -> Int {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func theFileStoreKeepsTheSessionPrivateAndReplacesItWhole() async throws {
        let directory = LatchkeyProcess.makeTemporaryDirectory() + "/config/app"
        let store = FileTokenStore(url: URL(fileURLWithPath: directory + "/session.json"))
        #expect(try await store.load() == nil, "no file: nobody signed in")

        try await store.save(Self.session)
        #expect(try Self.mode(directory + "/session.json") == 0o600)
        #expect(try Self.mode(directory) == 0o700, "the directory it made is private too")
        #expect(try await store.load() == Self.session)

        var next = Self.session
        next.refreshToken = "lk1.next"
        try await store.save(next)
        #expect(try await store.load() == next)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["session.json"], "no temporary file is left")
        #expect(try Self.mode(directory + "/session.json") == 0o600)

        try await store.clear()
        #expect(try await store.load() == nil)
        try await store.clear()  // clearing nothing is fine
    }

    @Test func anUnreadableFileThrowsRatherThanReadingAsSignedOut() async throws {
        let path = LatchkeyProcess.makeTemporaryDirectory() + "/session.json"
        try Data("not json".utf8).write(to: URL(fileURLWithPath: path))
        await #expect(throws: (any Error).self) { try await FileTokenStore(url: URL(fileURLWithPath: path)).load() }
    }

    /// What another version of the library wrote still reads: a newer format with fields
    /// this one does not know, and an older one without `refreshAfter`.
    @Test func archivesOfOtherVersionsStillRead() throws {
        let written = try SessionArchive.decode(try SessionArchive.encode(Self.session))
        #expect(written == Self.session)

        let newer = #"""
        {"format":7,"deviceName":"Ada's phone","session":{"accessToken":"a.b.c","refreshToken":"r","accessTokenExpiresAt":"2027-01-15T08:00:00Z",
         "refreshAfter":"2027-01-15T07:59:00Z","keyID":"k9","user":{"id":"u1","email":"ada@example.com","emailVerified":false,
         "displayName":"ada","photoURL":null,"createdAt":"2026-11-22T17:30:00Z","pronouns":"she/her"}}}
        """#
        let fromNewer = try SessionArchive.decode(Data(newer.utf8))
        #expect(fromNewer.refreshToken == "r" && fromNewer.user.photoURL == nil && fromNewer.user.displayName == "ada")

        let older = #"""
        {"format":1,"session":{"accessToken":"a.b.c","refreshToken":"r","user":{"id":"u1","email":"ada@example.com",
         "emailVerified":true,"displayName":"ada","createdAt":"2026-11-22T17:30:00Z"}}}
        """#
        let fromOlder = try SessionArchive.decode(Data(older.utf8))
        #expect(fromOlder.accessTokenExpiresAt == .distantPast, "an unknown expiry refreshes at the first call")
        #expect(fromOlder.refreshAfter == .distantPast)
    }

    @Test func theMemoryStoreKeepsWhatItIsGiven() async throws {
        let store = InMemoryTokenStore()
        #expect(await store.load() == nil)
        await store.save(Self.session)
        #expect(await store.load() == Self.session)
        await store.clear()
        #expect(await store.load() == nil)
    }
}
