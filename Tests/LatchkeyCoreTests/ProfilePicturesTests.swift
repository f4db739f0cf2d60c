import Foundation
@testable import LatchkeyCore
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

    /// Uploads of one user racing each other all succeed; each commit deletes only the
    /// file it replaced (never another upload's, still being written or not yet named), so
    /// the last one's file is the one left.
    @Test func concurrentUploadsOfOneUserLeaveTheLastOnesFile() async throws {
        let store = try await makeStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let users = try await withThrowingTaskGroup(of: User.self) { group in
            for _ in 0..<12 {
                group.addTask { try await store.replace(for: Self.userID, mediaType: Array("image/png".utf8), bytes: Self.png) }
            }
            return try await group.reduce(into: [User]()) { $0.append($1) }
        }
        #expect(users.count == 12)
        let database = try Database(path: folder + "/latchkey.sqlite")
        let final = try #require(try database.makeReader().read { try AccountStore.user(id: Self.userID, on: $0) }?.photoURL)
        #expect(storedFiles() == [String(final.split(separator: "/").last!)])
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

    /// A picture larger than the window the strippers read through: read from the upload's
    /// file in pieces, it comes out as the in-memory strip does, and the upload's file is gone.
    @Test func aLargePictureIsStrippedFromItsFileInPieces() async throws {
        let store = try await makeStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var scan: [UInt8] = []
        for index in 0..<300_000 { scan.append(index % 97 == 0 ? 0xFF : UInt8(truncatingIfNeeded: index % 251)) }
        for index in stride(from: 0, to: scan.count, by: 97) { scan[index + 1] = 0x00 }  // every FF stuffed
        let exif = PictureMetadataTests.segment(0xE1, Array("Exif\0\0".utf8) + Array(repeating: 0x47, count: 100))
        let tables = PictureMetadataTests.segment(0xDB, Array(repeating: 1, count: 40_000))
            + PictureMetadataTests.segment(0xDB, Array(repeating: 2, count: 40_000))
        let image = [0xFF, 0xDA, 0x00, 0x02] + scan + [0xFF, 0xD9]
        // The second Exif segment lies past the strippers' first 64 KiB window.
        let jpeg: [UInt8] = [0xFF, 0xD8] + PictureMetadataTests.jfif + exif + tables + exif + image
        let user = try await store.replace(for: Self.userID, mediaType: Array("image/jpeg".utf8), bytes: jpeg)
        let stored = try #require(store.file(userID: Self.userID, name: String(user.photoURL!.split(separator: "/").last!)))
        let expected = [0xFF, 0xD8] + PictureMetadataTests.jfif + tables + image
        #expect(FileManager.default.contents(atPath: stored.path) == Data(expected))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder + "/uploads/profile_pictures")
        #expect(leftovers == [Self.userID], "no upload file is left beside the user folders")
    }

    /// A profile change committed elsewhere (`PATCH /v1/users/me`) hands over the old and
    /// new URL: the old file goes unless the new URL names it too.
    @Test func aChangedPhotoURLDeletesOnlyTheFileNoLongerNamed() async throws {
        let store = try await makeStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let url = try #require(try await store.replace(for: Self.userID, mediaType: Array("image/png".utf8), bytes: Self.png).photoURL)
        let name = String(url.split(separator: "/").last!)
        store.photoURLChanged(of: Self.userID, from: url, to: url)
        store.photoURLChanged(of: Self.userID, from: url, to: url.uppercased().replacing(name.uppercased(), with: name))
        store.photoURLChanged(of: "fedcba9876543210fedcba9876543210", from: url, to: nil)
        store.photoURLChanged(of: Self.userID, from: "https://cdn.example.com/\(Self.userID)/\(name)", to: nil)
        #expect(storedFiles() == [name], "still named, or not this store's URL of this user")
        store.photoURLChanged(of: Self.userID, from: url, to: "https://cdn.example.com/ada.png")
        #expect(storedFiles().isEmpty)
    }

    @Test func theUploadQuotaCountsThirtyAnHour() {
        let now: Int64 = 100_000
        #expect(PictureUploadQuota.retryAfter(recent: Array(repeating: now, count: 29), now: now) == nil)
        let recent = (0..<30).map { now - Int64($0) * 100 }  // newest first: the oldest 2900 s ago
        #expect(PictureUploadQuota.retryAfter(recent: recent, now: now) == 700)
    }

    /// Thirty accepted uploads in the hour, then `Throttled`; refused ones do not count,
    /// and the refused 31st leaves the picture and the folder as they were.
    @Test func theThirtyFirstUploadInAnHourIsThrottled() async throws {
        let store = try await makeStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await #expect(throws: PictureError.typeMismatch) { try await store.replace(for: Self.userID, mediaType: Array("image/jpeg".utf8), bytes: Self.png) }
        var last: User?
        for _ in 0..<30 { last = try await store.replace(for: Self.userID, mediaType: Array("image/png".utf8), bytes: Self.png) }
        await #expect(throws: Throttled.self) { try await store.replace(for: Self.userID, mediaType: Array("image/png".utf8), bytes: Self.png) }
        let kept = try #require(last?.photoURL)
        #expect(storedFiles() == [String(kept.split(separator: "/").last!)])
    }

    @Test func anUploadLongerThanItsLimitIsRefusedAsItArrives() async throws {
        let store = try await makeStore()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let upload = try store.newUpload(limit: 10)
        try Self.png.prefix(10).withUnsafeBytes { try upload.append($0) }
        #expect(throws: PictureError.tooLarge) { try [0].withUnsafeBytes { try upload.append($0) } }
        #expect(upload.length == 10)
    }
}

extension ProfilePictures {
    func replace(for userID: String, mediaType: [UInt8], bytes: [UInt8]) async throws -> User {
        let upload = try newUpload(limit: bytes.count)
        try bytes.withUnsafeBytes { try upload.append($0) }
        return try await replace(for: userID, mediaType: mediaType, upload: upload)
    }
}
