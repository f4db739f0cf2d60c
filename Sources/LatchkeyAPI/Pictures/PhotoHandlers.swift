import HTTPServer
import LatchkeyCore

/// `PUT /v1/users/me/photo` (the picture as the raw body), `POST /v1/users/me/photo` (a
/// `multipart/form-data` form with the picture in part `file`, as `curl -F file=@me.jpg`
/// sends it) and `DELETE /v1/users/me/photo`.
enum PhotoHandlers {
    /// A caller without a valid token, or a type that is not a picture, is refused from
    /// the head, before any byte of a body of up to `maxPictureBytes` is read.
    static func admission(_ context: APIContext) -> @Sendable (RequestHead) -> Response? {
        { head in
            if let refused = signedTokenRefusal(head, context) { return refused }
            return ImageFormat(mediaType: Array((head.field("Content-Type") ?? "").utf8)) == nil
                ? ErrorResponder.problem(for: PictureError.unsupportedType).response() : nil
        }
    }

    static func formAdmission(_ context: APIContext) -> @Sendable (RequestHead) -> Response? {
        { head in
            if let refused = signedTokenRefusal(head, context) { return refused }
            return MultipartParser.boundary(ofContentType: head.field("Content-Type") ?? "") == nil ? APIProblem.unsupportedMultipart.response() : nil
        }
    }

    private static func signedTokenRefusal(_ head: RequestHead, _ context: APIContext) -> Response? {
        do {
            try context.core.verifier.checkSignedToken(authorization: head.field("Authorization"))
            return nil
        } catch {
            return ErrorResponder.problem(for: error).response()
        }
    }

    static func put(_ request: Request, _ context: APIContext) async throws -> Response {
        let caller = try context.authenticate(request)
        let user = try await context.core.pictures.replace(
            for: caller.userID, mediaType: Array((request.header("Content-Type") ?? "").utf8), bytes: request.body
        )
        return JSONResponses.make(200, JSONResponses.user(user))
    }

    /// Room for the form's own bytes (delimiters, part headers) beside the picture.
    static let formOverhead = 16 * 1024

    static func post(_ request: Request, _ context: APIContext) async throws -> Response {
        let caller = try context.authenticate(request)
        guard let boundary = MultipartParser.boundary(ofContentType: request.header("Content-Type") ?? "") else { throw APIProblem.unsupportedMultipart }
        let picture = try filePart(of: request.body, boundary: boundary)
        let user = try await context.core.pictures.replace(for: caller.userID, mediaType: Array(picture.type.utf8), bytes: picture.bytes)
        return JSONResponses.make(200, JSONResponses.user(user))
    }

    /// The first part named `file`: its declared type and its bytes.
    static func filePart(of body: [UInt8], boundary: [UInt8]) throws -> (type: String, bytes: [UInt8]) {
        var parser = MultipartParser(boundary: boundary)
        var found: (type: String, bytes: [UInt8])?
        var collecting = false
        do {
            for event in try parser.feed(body) {
                switch event {
                case .part(let fields):
                    collecting = found == nil && MultipartParser.formFieldName(of: fields).map { Array($0.utf8) == Array("file".utf8) } == true
                    if collecting { found = (fields.value(of: "Content-Type") ?? "", []) }
                case .data(let bytes):
                    if collecting { found?.bytes += bytes }
                case .partEnd:
                    collecting = false
                }
            }
            try parser.finish()
        } catch {
            throw APIProblem.invalidArgument(field: "file", detail: "The multipart/form-data body is malformed.")
        }
        guard let found else {
            throw APIProblem.invalidArgument(field: "file", detail: "Send the picture in a form part named file (curl -F file=@me.jpg).")
        }
        return found
    }

    static func delete(_ request: Request, _ context: APIContext) async throws -> Response {
        let caller = try context.authenticate(request)
        return JSONResponses.make(200, JSONResponses.user(try await context.core.pictures.remove(for: caller.userID)))
    }
}
