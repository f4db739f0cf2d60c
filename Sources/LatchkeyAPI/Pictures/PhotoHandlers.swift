import HTTPServer
import LatchkeyCore

/// `PUT /v1/users/me/photo` (the picture as the raw body), `POST /v1/users/me/photo` (a
/// `multipart/form-data` form with the picture in part `file`, as `curl -F file=@me.jpg`
/// sends it) and `DELETE /v1/users/me/photo`.
enum PhotoHandlers {
    /// A type that is not a picture is refused from the head, before any byte of a body
    /// of up to `maxPictureBytes` is read (as is a caller without a valid token: `Routes`).
    static let pictureMediaType: Routes.Admission = { head in
        ImageFormat(mediaType: Array((head.field("Content-Type") ?? "").utf8)) == nil
            ? ErrorResponder.problem(for: PictureError.unsupportedType).response() : nil
    }

    static let formMediaType: Routes.Admission = { head in
        MultipartParser.boundary(ofContentType: head.field("Content-Type") ?? "") == nil ? APIProblem.unsupportedMultipart.response() : nil
    }

    /// The raw picture goes to disk as it arrives.
    static func receiveRaw(_ context: APIContext) -> @Sendable (RequestHead) throws -> any RequestBodyReceiver {
        { _ in RawPictureBody(try context.core.pictures.newUpload(limit: context.maxPictureBytes)) }
    }

    /// The form's `file` part goes to disk as it arrives.
    static func receiveForm(_ context: APIContext) -> @Sendable (RequestHead) throws -> any RequestBodyReceiver {
        { head in
            guard let boundary = MultipartParser.boundary(ofContentType: head.field("Content-Type") ?? "") else { throw APIProblem.unsupportedMultipart }
            return FormPictureBody(try context.core.pictures.newUpload(limit: context.maxPictureBytes), boundary: boundary)
        }
    }

    static func put(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        // A request without a body has no receiver.
        guard let body = request.receivedBody as? RawPictureBody else { throw PictureError.empty }
        let user = try await context.core.pictures.replace(
            for: caller.userID, mediaType: Array((request.header("Content-Type") ?? "").utf8), upload: body.upload
        )
        return JSONResponses.make(200, JSONResponses.user(user))
    }

    /// Room for the form's own bytes (delimiters, part headers) beside the picture.
    static let formOverhead = 16 * 1024

    static func post(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        guard let form = request.receivedBody as? FormPictureBody, let mediaType = form.mediaType else {
            throw APIProblem.invalidArgument(field: "file", detail: "Send the picture in a form part named file (curl -F file=@me.jpg).")
        }
        let user = try await context.core.pictures.replace(for: caller.userID, mediaType: Array(mediaType.utf8), upload: form.upload)
        return JSONResponses.make(200, JSONResponses.user(user))
    }

    static func delete(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        return JSONResponses.make(200, JSONResponses.user(try await context.core.pictures.remove(for: caller.userID)))
    }
}
