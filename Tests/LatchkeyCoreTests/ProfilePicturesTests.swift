import Foundation
@testable import LatchkeyCore
import SQLite
import Testing

/// The picture store against a real database and folder: what a failure leaves behind,
/// what a replacement deletes, and which names can ever reach a file.
@Suite struct ProfilePicturesTests {
    let folder = NSTemporaryDirectory() + "latchkey-pictures-\(UUID().uuidString)"
    static let userID = "0123456789abcdef0123456789abcdef"
    static let png = PictureMetadataTests.pngSignature + PictureMetadataTests.chunk("IHDR", [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0])
        + PictureMetadataTests.chunk("IDAT", [1, 2, 3]) + PictureMetadataTests.chunk("IEND", [])

    func makeStore() async throws -> ProfilePictures {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let database = try Database(path: folder + "/latchkey.sqlite")
        guard case .success(let email) = EmailRules.normalize("ada@example.com") else { throw PictureError.empty }
        try await database.write { db in
            try AccountStore.insertUser(id: Self.userID, email: email, passwordHash: "x", displayName: "ada", now: 1, on: db)
        }
        return ProfilePictures(database: database, root: folder + "/uploads/profile_pictures", publicURL: "https://auth.example.com")
    }

    func storedFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(folder)/uploads/profile_pictures/\(Self.userID)")) ?? []).sorted()
    }

    @Test func aPictureIsStoredNamedInThePhotoURLAndReplacesTheOldOne() async throws {
        let store = try await makeStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try await store.replace(for: Self.userID, mediaType: Array("image/png".utf8), bytes: Self.png)
        let url = try #require(first.photoURL)
        #expect(url.hasPrefix("https://auth.example.com/files/profile_pictures/\(Self.userID)/") && url.hasSuffix(".png"))
        let name = String(url.split(separator: "/").last!)
        #expect(storedFiles() == [name])
        let served = try #require(store.file(userID: Self.userID, name: name))
        #expect(FileManager.default.contents(atPath: served.path) == Data(Self.png), "no metadata: byte for byte")
        #expect(served.format == .png)

        let second = try await store.replace(for: Self.userID, mediaType: Array("image/png".utf8), bytes: Self.png)
        #expect(second.photoURL != url)
        #expect(storedFiles() == [String(second.photoURL!.split(separator: "/").last!)], "the replaced file is gone")

        let cleared = try await store.remove(for: Self.userID)
        #expect(cleared.photoURL == nil)
        #expect(storedFiles().isEmpty)
    }

    @Test func aRefusedUploadChangesNothing() async throws {
        let store = try await makeStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let kept = try await store.replace(for: Self.userID, mediaType: Array("image/png".utf8), bytes: Self.png)
        let refusals: [(String, [UInt8], PictureError)] = [
            ("image/png", [], .empty),
            ("image/gif", Array("GIF89a".utf8), .unsupportedType),
            ("image/jpeg", Self.png, .typeMismatch),
            ("image/png", Array(Self.png.dropLast(12)), .unreadable),
        ]
        for (type, bytes, error) in refusals {
            await #expect(throws: error) { try await store.replace(for: Self.userID, mediaType: Array(type.utf8), bytes: bytes) }
        }
        await #expect(throws: AccessError.sessionRevoked) {
            try await store.replace(for: "ffffffffffffffffffffffffffffffff", mediaType: Array("image/png".utf8), bytes: Self.png)
        }
        #expect(storedFiles() == [String(kept.photoURL!.split(separator: "/").last!)], "the old picture stays, no orphan file")
    }

    @Test(arguments: [
        ("0123456789abcdef0123456789abcdef", "../latchkey.sqlite"),
        ("..", "0123456789abcdef0123456789abcdef.png"),
        ("0123456789abcdef0123456789abcdef", "0123456789ABCDEF0123456789ABCDEF.png"),
        ("0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef.png/.."),
        ("0123456789abcdef0123456789abcdef", "0123456789abcdef0123456789abcdef.gif"),
        ("a%2F..", "0123456789abcdef0123456789abcdef.png"),
        ("/etc", "passwd"),
    ])
    func onlyNamesTheStoreMakesReachAFile(_ userID: String, _ name: String) async throws {
        let store = try await makeStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(store.file(userID: userID, name: name) == nil)
    }

    @Test func aSymbolicLinkIsNotServed() async throws {
        let store = try await makeStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let user = try await store.replace(for: Self.userID, mediaType: Array("image/png".utf8), bytes: Self.png)
        let name = "fedcba9876543210fedcba9876543210.png"
        try FileManager.default.createSymbolicLink(atPath: "\(folder)/uploads/profile_pictures/\(Self.userID)/\(name)", withDestinationPath: folder + "/latchkey.sqlite")
        #expect(store.file(userID: Self.userID, name: name) == nil)
        #expect(store.file(userID: Self.userID, name: String(user.photoURL!.split(separator: "/").last!)) != nil)
    }
}
