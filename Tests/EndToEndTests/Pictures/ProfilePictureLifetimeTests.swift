import Foundation
import Testing
import TestSupport

extension Accounts {
    /// A stored picture lives exactly as long as `photoURL` names it, and an account can
    /// store only so many: the stories of the security review's finding that picture files
    /// outlived their URL and uploads were not throttled.
    @Suite struct ProfilePictureLifetime {
        typealias Pictures = ProfilePictures

        static func patchPhotoURL(_ server: AccountServer, _ url: Any, token: String) throws -> JSONResponse {
            try server.call("PATCH", "/v1/users/me", json: ["photoURL": url], token: token)
        }

        /// Ada sets a picture, regrets it and clears it the way a Firebase client does,
        /// with a profile change to `null`; later she points `photoURL` at a picture hosted
        /// elsewhere. Mallory kept the stored picture's URL: from the moment of each change
        /// it answers 404, and the file is gone from the disk.
        @Test func aPictureIsDeletedOnceAPatchNoLongerNamesIt() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let png = try Pictures.picture("png")

            let first = try #require(try Pictures.upload(server, png.bytes, as: "image/png", token: ada.accessToken)["photoURL"] as? String)
            let renamed = try server.call("PATCH", "/v1/users/me", json: ["displayName": "ada.l"], token: ada.accessToken)
            #expect(renamed.status == 200 && renamed["photoURL"] as? String == first, "a change that leaves photoURL alone")
            #expect(try Pictures.fetch(server, first).status == 200, "keeps the picture")
            let cleared = try Self.patchPhotoURL(server, NSNull(), token: ada.accessToken)
            #expect(cleared.status == 200 && cleared["photoURL"] is NSNull)
            #expect(try Pictures.fetch(server, first).status == 404, "Mallory's copy of the URL is dead")
            #expect(try Pictures.storedFiles(server, ada.id).isEmpty, "and the file gone from the disk")

            let second = try #require(try Pictures.upload(server, png.bytes, as: "image/png", token: ada.accessToken)["photoURL"] as? String)
            let outside = "https://cdn.example.com/ada.png"
            let moved = try Self.patchPhotoURL(server, outside, token: ada.accessToken)
            #expect(moved.status == 200 && moved["photoURL"] as? String == outside)
            #expect(try Pictures.fetch(server, second).status == 404)
            #expect(try Pictures.storedFiles(server, ada.id).isEmpty)
            #expect(try server.me(ada.accessToken)["photoURL"] as? String == outside)
        }

        /// Mallory uploads a picture and drops it with a PATCH, again and again, to fill the
        /// disk the server shares with everyone (before, 20 rounds left 21 files): each
        /// round's file goes with its URL, so the disk never holds more than the one picture
        /// she has.
        @Test func uploadThenPatchRoundsLeaveAtMostOneFile() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let mallory = try server.signUp("mallory@example.com", "mallory")
            let png = try Pictures.picture("png")
            for round in 0..<20 {
                let url = try #require(try Pictures.upload(server, png.bytes, as: "image/png", token: mallory.accessToken)["photoURL"] as? String)
                #expect(try Pictures.storedFiles(server, mallory.id).count == 1, "round \(round): the upload's file")
                let other: Any = round.isMultiple(of: 2) ? NSNull() : "https://cdn.example.com/\(round).png"
                #expect(try Self.patchPhotoURL(server, other, token: mallory.accessToken).status == 200)
                #expect(try Pictures.storedFiles(server, mallory.id).isEmpty, "round \(round): the file went with its URL")
                #expect(try Pictures.fetch(server, url).status == 404)
            }
        }

        /// Ada's phone uploads a picture while her laptop clears it, through two instances
        /// at once, round after round: whichever commits last wins, and the disk holds
        /// exactly the file `photoURL` names (or none), never a file nothing names and never
        /// a URL whose file was deleted.
        @Test func racingUploadsAndPatchesLeaveExactlyTheNamedFile() throws {
            let a = try AccountServer()
            let b = try AccountServer(["--public-url", a.publicURL], dataDirectory: a.dataDirectory, signingKey: a.signingKey, signingKeys: a.signingKeys, issuer: a.configuredIssuer)
            defer { a.stop(); b.stop() }
            let ada = try a.signUp("ada@example.com", "ada")
            let png = try Pictures.picture("png").bytes
            let (token, ports) = (ada.accessToken, [a.port, b.port])
            for round in 0..<8 {
                // Two uploads and two PATCHes (to null, to an outside URL), one of each per instance.
                let statuses = concurrently(4) { index -> Int in
                    let body: RequestBody = switch index {
                    case 0, 1: .bytes(png, contentType: "image/png")
                    case 2: .json(["photoURL": NSNull()])
                    default: .json(["photoURL": "https://cdn.example.com/ada.png"])
                    }
                    let (method, path) = index < 2 ? ("PUT", "/v1/users/me/photo") : ("PATCH", "/v1/users/me")
                    return (try? call(port: ports[index % 2], method, path, body: body, token: token))?.status ?? 0
                }
                #expect(statuses == [200, 200, 200, 200], "round \(round)")
                let named = try a.me(token)["photoURL"] as? String
                let files = try Pictures.storedFiles(a, ada.id)
                if let named, named.hasPrefix(a.publicURL) {
                    #expect(files == [String(named.split(separator: "/").last!)], "round \(round): the named file alone")
                    #expect(try Pictures.fetch(a, named).status == 200)
                } else {
                    #expect(files.isEmpty, "round \(round): photoURL \(named ?? "null") names no stored file, so none is left")
                }
            }
        }

        /// Mallory scripts uploads to fill the disk (or the bandwidth of everyone who shows
        /// her picture). Her failed uploads count for nothing; 30 accepted ones in an hour
        /// are hers, through whichever instance she reaches; the 31st is 429 with
        /// `Retry-After` and changes nothing. Bob, on the same server, uploads as before.
        @Test func theThirtyFirstUploadInAnHourIsRefusedOnEveryInstance() throws {
            let a = try AccountServer(rateLimits: true)
            // Instances behind one load balancer share its public URL (their pictures' URLs).
            let b = try AccountServer(
                rateLimits: true, ["--public-url", a.publicURL], dataDirectory: a.dataDirectory, signingKey: a.signingKey,
                signingKeys: a.signingKeys, issuer: a.configuredIssuer
            )
            defer { a.stop(); b.stop() }
            let mallory = try a.signUp("mallory@example.com", "mallory")
            let bob = try a.signUp("bob@example.com", "bob")
            let png = try Pictures.picture("png")

            for _ in 0..<5 {
                expectProblem(try Pictures.upload(a, png.bytes, as: "image/jpeg", token: mallory.accessToken), 415, "UNSUPPORTED_MEDIA_TYPE", "refused: not counted")
            }
            var last = ""
            for upload in 1...30 {
                let response = try Pictures.upload(upload.isMultiple(of: 2) ? a : b, png.bytes, as: "image/png", token: mallory.accessToken)
                #expect(response.status == 200, "upload \(upload) of 30: \(response)")
                last = try #require(response["photoURL"] as? String)
            }
            for server in [a, b] {
                let refused = try Pictures.upload(server, png.bytes, as: "image/png", token: mallory.accessToken)
                expectProblem(refused, 429, "TOO_MANY_ATTEMPTS_TRY_LATER", "the 31st upload within the hour")
                let retryAfter = try #require(refused.header("Retry-After").flatMap { Int($0) })
                #expect((3500...3600).contains(retryAfter), "until the hour's first upload leaves it: \(retryAfter)")
                let form = Pictures.form(png.bytes, type: "image/png")
                let refusedForm = try call(port: server.port, "POST", "/v1/users/me/photo", body: .bytes(form.body, contentType: form.contentType), token: mallory.accessToken)
                expectProblem(refusedForm, 429, "TOO_MANY_ATTEMPTS_TRY_LATER", "a form upload counts the same")
            }
            #expect(try a.me(mallory.accessToken)["photoURL"] as? String == last, "the refused uploads changed nothing")
            #expect(try Pictures.fetch(b, String(last.dropFirst(a.publicURL.count))).body == png.bytes)
            #expect(try Pictures.storedFiles(a, mallory.id) == [String(last.split(separator: "/").last!)], "and left no file")

            #expect(try Pictures.upload(b, png.bytes, as: "image/png", token: bob.accessToken).status == 200, "per account")
        }
    }
}
