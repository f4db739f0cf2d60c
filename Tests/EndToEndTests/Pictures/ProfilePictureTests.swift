import Foundation
import Testing
import TestSupport

extension Accounts {
    /// `PUT`/`DELETE /v1/users/me/photo` and the files behind `photoURL`, with pictures made
    /// and read by Pillow: stored byte for byte when clean, stripped of metadata (and still
    /// decoding) when not, served with their validators, and nothing reachable beside them.
    @Suite struct ProfilePictures {
        static func picture(_ format: String, metadata: Bool = false, large: Bool = false, icc: Bool = false) throws -> (path: String, bytes: [UInt8]) {
            let path = LatchkeyProcess.makeTemporaryDirectory() + "/picture.\(format)"
            let flags = (metadata ? ["--metadata"] : []) + (large ? ["--large"] : []) + (icc ? ["--icc"] : [])
            _ = try runPythonTool("pictures.py", arguments: ["make", format, path] + flags)
            return (path, Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        }

        /// `clean` with a C2PA manifest and a chunk no standard names spliced in, each
        /// naming a GPS position (`pictures.py splice`).
        static func spliced(_ format: String, _ clean: (path: String, bytes: [UInt8])) throws -> [UInt8] {
            let path = clean.path + ".spliced"
            _ = try runPythonTool("pictures.py", arguments: ["splice", format, clean.path, path])
            return Array(try Data(contentsOf: URL(fileURLWithPath: path)))
        }

        static func inspect(_ bytes: [UInt8]) throws -> [String: Any] {
            let path = LatchkeyProcess.makeTemporaryDirectory() + "/served"
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let output = try runPythonTool("pictures.py", arguments: ["inspect", path])
            return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        }

        static func upload(_ server: AccountServer, _ bytes: [UInt8], as type: String, token: String?) throws -> JSONResponse {
            try call(port: server.port, "PUT", "/v1/users/me/photo", body: .bytes(bytes, contentType: type), token: token)
        }

        /// The raw answer to a GET or HEAD of `url` (under the server's public URL).
        static func fetch(_ server: AccountServer, _ url: String, method: String = "GET", headers: String = "") throws -> RawResponse {
            let path = url.hasPrefix(server.publicURL) ? String(url.dropFirst(server.publicURL.count)) : url
            let connection = try RawConnection(port: server.port)
            try connection.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\(headers)\r\n")
            return try connection.readResponse(isHead: method == "HEAD")
        }

        @Test(arguments: [("jpeg", "image/jpeg"), ("png", "image/png"), ("webp", "image/webp")])
        func aCleanPictureIsStoredByteForByteAndServedWithItsValidators(_ format: String, _ type: String) throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let picture = try Self.picture(format)
            let uploaded = try Self.upload(server, picture.bytes, as: type, token: ada.accessToken)
            #expect(uploaded.status == 200)
            let url = try #require(uploaded["photoURL"] as? String)
            #expect(url.hasPrefix("\(server.publicURL)/files/profile_pictures/\(ada.id)/"))
            #expect(try server.me(ada.accessToken)["photoURL"] as? String == url)

            let served = try Self.fetch(server, url)
            #expect(served.status == 200)
            #expect(served.body == picture.bytes, "no metadata: byte for byte")
            #expect(served.header("Content-Type") == type)
            #expect(served.header("Content-Length") == String(picture.bytes.count))
            #expect(served.header("Cache-Control") == "public, max-age=31536000, immutable")
            #expect(served.header("Content-Security-Policy") == "default-src 'none'")
            #expect(served.header("X-Content-Type-Options") == "nosniff")
            let tag = try #require(served.header("ETag"))
            #expect(tag.hasPrefix("\"") && !tag.hasPrefix("W/"), "a strong validator")

            let head = try Self.fetch(server, url, method: "HEAD")
            #expect(head.status == 200 && head.body.isEmpty && head.header("Content-Length") == String(picture.bytes.count))
            let unchanged = try Self.fetch(server, url, headers: "If-None-Match: W/\"other\", \(tag)\r\n")
            #expect(unchanged.status == 304 && unchanged.body.isEmpty && unchanged.header("ETag") == tag)
            // The list splits at every comma byte, also one a combining mark follows (which
            // a split on Swift Characters would not see).
            let combining = try Self.fetch(server, url, headers: "If-None-Match: \(tag),\u{301}\"other\"\r\n")
            #expect(combining.status == 304)
        }

        @Test(arguments: [("jpeg", "image/jpeg"), ("png", "image/png"), ("webp", "image/webp")])
        func metadataIsRemovedAndThePictureStillDecodes(_ format: String, _ type: String) throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let picture = try Self.picture(format, metadata: true)
            let before = try Self.inspect(picture.bytes)
            #expect(before["gps"] as? Bool == true, "the test picture tells where it was taken")
            let url = try #require(try Self.upload(server, picture.bytes, as: type, token: ada.accessToken)["photoURL"] as? String)
            let served = try Self.fetch(server, url)
            let after = try Self.inspect(served.body)
            #expect(after["decodes"] as? Bool == true)
            #expect(after["size"] as? [Int] == [32, 24])
            #expect(after["exif"] as? Bool == false && after["gps"] as? Bool == false)
            #expect(after["infoKeys"] as? [String] == [], "no text, comment, XMP or time: \(after)")
            #expect(served.body.count < picture.bytes.count)
        }

        /// Ada's camera signs its photos with C2PA, whose manifest can hold where she
        /// stood; another app adds a chunk of its own no standard names. Mallory, who views
        /// her picture, finds neither: what may stay is a list, and these are not on it.
        /// Everything on it (here the ICC profile) stays, byte for byte.
        @Test(arguments: [("jpeg", "image/jpeg"), ("png", "image/png"), ("webp", "image/webp")])
        func c2paManifestsAndUnknownChunksAreRemoved(_ format: String, _ type: String) throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let clean = try Self.picture(format, icc: true)
            let signed = try Self.spliced(format, clean)
            let position = Array("GPSLatitude".utf8)
            #expect(signed.count > clean.bytes.count && Self.contains(signed, position), "the test picture tells where it was taken")

            let url = try #require(try Self.upload(server, signed, as: type, token: ada.accessToken)["photoURL"] as? String)
            let served = try Self.fetch(server, url).body
            #expect(!Self.contains(served, position), "no manifest and no unknown chunk")
            #expect(served == clean.bytes, "only they went: the rest byte for byte")
            let seen = try Self.inspect(served)
            #expect(seen["decodes"] as? Bool == true && seen["size"] as? [Int] == [32, 24])
        }

        static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
            haystack.indices.dropLast(needle.count - 1).contains { haystack[$0..<$0 + needle.count].elementsEqual(needle) }
        }

        @Test func refusedUploadsChangeNothing() throws {
            let server = try AccountServer(["--max-picture-bytes", "4096"])
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let png = try Self.picture("png")
            let url = try #require(try Self.upload(server, png.bytes, as: "image/png", token: ada.accessToken)["photoURL"] as? String)

            expectProblem(try Self.upload(server, png.bytes, as: "image/jpeg", token: ada.accessToken), 415, "UNSUPPORTED_MEDIA_TYPE", "bytes of another type")
            expectProblem(try Self.upload(server, Array("GIF89a".utf8), as: "image/gif", token: ada.accessToken), 415, "UNSUPPORTED_MEDIA_TYPE")
            expectProblem(try Self.upload(server, Array(png.bytes.dropLast(12)), as: "image/png", token: ada.accessToken), 415, "UNSUPPORTED_MEDIA_TYPE", "cut short")
            expectProblem(try Self.upload(server, [], as: "image/png", token: ada.accessToken), 400, "EMPTY_BODY")
            expectProblem(try Self.upload(server, png.bytes + [UInt8](repeating: 0, count: 5000), as: "image/png", token: ada.accessToken), 413, "PAYLOAD_TOO_LARGE")
            expectProblem(try Self.upload(server, png.bytes, as: "image/png", token: nil), 401, "UNAUTHENTICATED")
            let oversizeForm = Self.form(png.bytes + [UInt8](repeating: 0, count: 5000), type: "image/png")
            expectProblem(try call(port: server.port, "POST", "/v1/users/me/photo", body: .bytes(oversizeForm.body, contentType: oversizeForm.contentType), token: ada.accessToken),
                          413, "PAYLOAD_TOO_LARGE", "a file part over the limit inside a form that is not")

            #expect(try server.me(ada.accessToken)["photoURL"] as? String == url)
            #expect(try Self.fetch(server, url).body == png.bytes, "the old picture is still served")
            #expect(try Self.storedFiles(server, ada.id).count == 1, "no orphan file")
        }

        /// A caller without a valid token is refused from the head: the server does not wait
        /// for (or read) a body of up to 5 MiB first.
        @Test func anUploadWithoutAValidTokenIsRefusedBeforeItsBody() throws {
            let server = try AccountServer()
            defer { server.stop() }
            for (method, type, authorization) in [
                ("PUT", "image/png", ""), ("PUT", "image/png", "Authorization: Bearer not-a-token\r\n"),
                ("POST", "multipart/form-data; boundary=x", ""),
            ] {
                let connection = try RawConnection(port: server.port, timeout: 3)
                try connection.send("\(method) /v1/users/me/photo HTTP/1.1\r\nHost: a\r\n\(authorization)Content-Type: \(type)\r\nContent-Length: 5000000\r\n\r\n")
                let answer = JSONResponse(try connection.readResponse())
                #expect(answer.status == 401, "\(method) \(authorization): \(answer)")
            }
        }

        /// A phone-sized photo (megabytes) with a GPS position, by both upload forms: it is
        /// taken in pieces, stripped from its file, and still decodes.
        @Test func aPhoneSizedPhotoIsStrippedByBothForms() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let photo = try Self.picture("jpeg", metadata: true, large: true)
            #expect(photo.bytes.count > 2 << 20)
            let form = Self.form(photo.bytes, type: "image/jpeg")
            let uploads: [() throws -> JSONResponse] = [
                { try Self.upload(server, photo.bytes, as: "image/jpeg", token: ada.accessToken) },
                { try call(port: server.port, "POST", "/v1/users/me/photo", body: .bytes(form.body, contentType: form.contentType), token: ada.accessToken) },
            ]
            for upload in uploads {
                let response = try upload()
                #expect(response.status == 200)
                let served = try Self.fetch(server, try #require(response["photoURL"] as? String)).body
                let seen = try Self.inspect(served)
                #expect(seen["decodes"] as? Bool == true && seen["gps"] as? Bool == false && seen["exif"] as? Bool == false)
                #expect(seen["size"] as? [Int] == [2000, 1400])
                #expect(served.count < photo.bytes.count && served.count > photo.bytes.count - 4096, "only the metadata went")
            }
        }

        static func storedFiles(_ server: AccountServer, _ userID: String) throws -> [String] {
            (try? FileManager.default.contentsOfDirectory(atPath: "\(server.dataDirectory)/uploads/profile_pictures/\(userID)")) ?? []
        }

        @Test func aChunkedUploadWorksAndReplacesTheOldFileWhichIsThenGone() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let first = try #require(try Self.upload(server, try Self.picture("png").bytes, as: "image/png", token: ada.accessToken)["photoURL"] as? String)

            let jpeg = try Self.picture("jpeg")
            let connection = try RawConnection(port: server.port)
            var request = Array("PUT /v1/users/me/photo HTTP/1.1\r\nHost: a\r\nConnection: close\r\nAuthorization: Bearer \(ada.accessToken)\r\nContent-Type: image/jpeg\r\nTransfer-Encoding: chunked\r\n\r\n".utf8)
            for start in stride(from: 0, to: jpeg.bytes.count, by: 100) {
                let piece = jpeg.bytes[start..<min(start + 100, jpeg.bytes.count)]
                request += Array("\(String(piece.count, radix: 16))\r\n".utf8) + piece + Array("\r\n".utf8)
            }
            try connection.send(request + Array("0\r\n\r\n".utf8))
            let replaced = JSONResponse(try connection.readResponse())
            #expect(replaced.status == 200)
            let second = try #require(replaced["photoURL"] as? String)
            #expect(second != first && second.hasSuffix(".jpg"))
            #expect(try Self.fetch(server, second).body == jpeg.bytes)
            #expect(try Self.fetch(server, first).status == 404, "the replaced file is deleted")
            #expect(try Self.storedFiles(server, ada.id) == [String(second.split(separator: "/").last!)])

            let cleared = try call(port: server.port, "DELETE", "/v1/users/me/photo", token: ada.accessToken)
            #expect(cleared.status == 200 && cleared["photoURL"] is NSNull)
            #expect(try Self.fetch(server, second).status == 404)
        }

        @Test func nothingButStoredPicturesCanBeReached() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            let url = try #require(try Self.upload(server, try Self.picture("png").bytes, as: "image/png", token: ada.accessToken)["photoURL"] as? String)
            let name = String(url.split(separator: "/").last!)
            let base = "/files/profile_pictures"
            for path in [
                "\(base)/\(ada.id)/..%2F..%2F..%2Flatchkey.sqlite", "\(base)/\(ada.id)/%2e%2e", "\(base)/..%2F..%2Flatchkey.sqlite/x",
                "\(base)/\(bob.id)/\(name)", "\(base)/\(ada.id)/\(name.uppercased())", "\(base)/\(ada.id)/\(name)%00.png",
                "\(base)/%2Fetc/passwd", "\(base)/\(ada.id)/signing-key", "/files/../latchkey.sqlite",
            ] {
                let response = try Self.fetch(server, path)
                #expect(response.status == 404 || response.status == 400, "\(path) answered \(response.status)")
                #expect(!response.body.starts(with: Array("SQLite format".utf8)))
            }
        }

        @Test func deletingTheAccountDeletesItsPictures() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let url = try #require(try Self.upload(server, try Self.picture("webp").bytes, as: "image/webp", token: ada.accessToken)["photoURL"] as? String)
            #expect(try call(port: server.port, "DELETE", "/v1/users/me", body: .json(["password": AccountServer.password]), token: ada.accessToken).status == 204)
            #expect(try Self.fetch(server, url).status == 404)
            #expect(!FileManager.default.fileExists(atPath: "\(server.dataDirectory)/uploads/profile_pictures/\(ada.id)"))
        }

        /// The form a browser or `curl -F file=@me.png` sends.
        static func form(_ bytes: [UInt8], type: String, partName: String = "file") -> (body: [UInt8], contentType: String) {
            let boundary = "------------------------LatchkeyTest0123"
            let body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"caption\"\r\n\r\nme\r\n".utf8)
                + Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(partName)\"; filename=\"me\"\r\nContent-Type: \(type)\r\n\r\n".utf8)
                + bytes + Array("\r\n--\(boundary)--\r\n".utf8)
            return (body, "multipart/form-data; boundary=\(boundary)")
        }

        @Test func aMultipartFormUploadsThePictureInPartFile() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let png = try Self.picture("png")
            let form = Self.form(png.bytes, type: "image/png")
            let uploaded = try call(port: server.port, "POST", "/v1/users/me/photo", body: .bytes(form.body, contentType: form.contentType), token: ada.accessToken)
            #expect(uploaded.status == 200)
            let url = try #require(uploaded["photoURL"] as? String)
            #expect(try Self.fetch(server, url).body == png.bytes)

            let jpeg = try Self.picture("jpeg", metadata: true)
            let tagged = Self.form(jpeg.bytes, type: "image/jpeg")
            let replaced = try call(port: server.port, "POST", "/v1/users/me/photo", body: .bytes(tagged.body, contentType: tagged.contentType), token: ada.accessToken)
            let stripped = try Self.inspect(try Self.fetch(server, try #require(replaced["photoURL"] as? String)).body)
            #expect(stripped["gps"] as? Bool == false && stripped["decodes"] as? Bool == true)

            let unnamed = Self.form(png.bytes, type: "image/png", partName: "picture")
            expectProblem(try call(port: server.port, "POST", "/v1/users/me/photo", body: .bytes(unnamed.body, contentType: unnamed.contentType), token: ada.accessToken),
                          400, "INVALID_ARGUMENT", "no part named file")
            let truncated = Array(form.body.dropLast(10))
            expectProblem(try call(port: server.port, "POST", "/v1/users/me/photo", body: .bytes(truncated, contentType: form.contentType), token: ada.accessToken),
                          400, "INVALID_ARGUMENT", "no closing delimiter")
            expectProblem(try call(port: server.port, "POST", "/v1/users/me/photo", body: .bytes(png.bytes, contentType: "image/png"), token: ada.accessToken),
                          415, "UNSUPPORTED_MEDIA_TYPE", "not a form")
            let mislabeled = Self.form(png.bytes, type: "image/jpeg")
            expectProblem(try call(port: server.port, "POST", "/v1/users/me/photo", body: .bytes(mislabeled.body, contentType: mislabeled.contentType), token: ada.accessToken),
                          415, "UNSUPPORTED_MEDIA_TYPE", "the part's type is not its bytes'")
        }
    }
}
