import HTTPServer
import LatchkeyCore

/// `GET` and `HEAD /files/profile_pictures/{userId}/{name}`: the stored file, read in
/// pieces. A name is random and never reused, so what it names never changes: a strong
/// `ETag` of the name and a year of immutable caching are both true.
enum PictureFileHandler {
    static func get(_ request: Request, _ context: APIContext) -> Response {
        guard let userID = request.pathParameters["userId"], let name = request.pathParameters["name"],
              let stored = context.core.pictures.file(userID: userID, name: name), let file = FileBody(path: stored.path)
        else { return ErrorResponder.problem(for: Problem.notFound).response() }
        let tag = "\"\(name)\""
        let headers = [
            HTTPField(name: "ETag", value: tag),
            HTTPField(name: "Cache-Control", value: "public, max-age=31536000, immutable"),
            HTTPField(name: "Content-Security-Policy", value: "default-src 'none'"),
        ]
        if matches(request.header("If-None-Match"), tag) { return Response(status: 304, headers: headers) }
        return Response(status: 200, headers: [HTTPField(name: "Content-Type", value: stored.format.mediaType)] + headers, file: file)
    }

    /// RFC 9110 §13.1.2: `*`, or a list of tags compared weakly (`W/` ignored).
    static func matches(_ field: String?, _ tag: String) -> Bool {
        guard let field else { return false }
        return listMembers([field]).prefix(100).contains { candidate in
            var bytes = candidate
            if bytes.elementsEqual("*".utf8) { return true }
            if bytes.starts(with: "W/".utf8) { bytes = bytes.dropFirst(2) }
            return bytes.elementsEqual(tag.utf8)
        }
    }
}
