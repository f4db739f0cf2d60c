import Foundation
import LatchkeyClient
import Testing
import TestSupport

/// Profile pictures through the client: upload from memory and from a file with progress
/// as it goes, the stored bytes checked on the server, removal.
@Suite(.timeLimit(.minutes(1))) struct PictureTests {
    /// The bytes the server serves at `url` (under its public URL).
    static func served(_ server: ClientTestServer, _ url: URL?) throws -> RawResponse {
        let url = try #require(url)
        let connection = try RawConnection(port: server.port)
        try connection.send("GET \(url.path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return try connection.readResponse()
    }

    @Test func anUploadReportsProgressAsItGoesAndIsStoredAsSent() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let ada = server.client()
        let id = try await ada.signUp(email: "ada@example.com", password: ClientTestServer.password, displayName: "ada").id
        let picture = TestPNG.make(width: 400, height: 300)  // about 360 KB
        let recorder = ProgressRecorder()
        let user = try await ada.uploadPicture(picture, type: .png) { recorder.record($0.bytesSent, $0.totalBytes) }

        let photo = try #require(user.photoURL)
        #expect(photo.absoluteString.hasPrefix("\(server.baseURL.absoluteString)/files/profile_pictures/\(id)/"))
        #expect(await ada.currentUser?.photoURL == photo, "the new URL is recorded and published")
        let reports = recorder.all
        #expect(reports.count >= 2, "progress comes in steps, not only at the end: \(reports.count)")
        #expect(zip(reports, reports.dropFirst()).allSatisfy { $0.sent <= $1.sent }, "and only grows")
        #expect(reports.last?.sent == Int64(picture.count))
        #expect(reports.allSatisfy { $0.total == Int64(picture.count) })
        let stored = try Self.served(server, photo)
        #expect(stored.status == 200 && stored.body == Array(picture), "a picture without metadata is stored byte for byte")
    }

    @Test func aFileIsUploadedFromDiskAndThePictureRemoved() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let ada = server.client()
        try await ada.signUp(email: "ada@example.com", password: ClientTestServer.password, displayName: "ada")
        let file = URL(fileURLWithPath: LatchkeyProcess.makeTemporaryDirectory() + "/me.png")
        let picture = TestPNG.make(width: 64, height: 48)
        try picture.write(to: file)
        #expect(PictureType(fileExtension: file.pathExtension) == .png)

        let missing = file.deletingLastPathComponent().appendingPathComponent("gone.png")
        await #expect(throws: CocoaError.self, "a file that cannot be read fails before anything is sent") {
            try await ada.uploadPicture(contentsOf: missing, type: .png)
        }

        let recorder = ProgressRecorder()
        let first = try #require(try await ada.uploadPicture(contentsOf: file, type: .png) { recorder.record($0.bytesSent, $0.totalBytes) }.photoURL)
        #expect(try Self.served(server, first).body == Array(picture))
        #expect(recorder.all.last?.sent == Int64(picture.count))

        let second = try #require(try await ada.uploadPicture(TestPNG.make(width: 8, height: 8), type: .png).photoURL)
        #expect(second != first)
        #expect(try Self.served(server, first).status == 404, "a replaced picture is deleted")

        #expect(try await ada.removePicture().photoURL == nil)
        #expect(try Self.served(server, second).status == 404)
        #expect(try await ada.reloadUser().photoURL == nil)
    }

    @Test func bytesThatAreNotOfTheirTypeAreRefused() async throws {
        let server = try ClientTestServer()
        defer { server.stop() }
        let ada = server.client()
        try await ada.signUp(email: "ada@example.com", password: ClientTestServer.password, displayName: "ada")
        await expectRefusal(415, .unsupportedMediaType) { _ = try await ada.uploadPicture(TestPNG.make(width: 8, height: 8), type: .jpeg) }
        await expectRefusal(400, .emptyBody) { _ = try await ada.uploadPicture(Data(), type: .png) }
        #expect(await ada.currentUser?.photoURL == nil)
    }
}
