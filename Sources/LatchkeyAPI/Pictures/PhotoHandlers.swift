import HTTPServer
import LatchkeyCore

/// `PUT /v1/users/me/photo` (the picture as the raw body) and `DELETE /v1/users/me/photo`.
enum PhotoHandlers {
    /// A type that is not a picture is refused from the head, before any byte of the body
    /// is read or its size judged.
    static let admission: @Sendable (RequestHead) -> Response? = { head in
        ImageFormat(mediaType: Array((head.field("Content-Type") ?? "").utf8)) == nil
            ? ErrorResponder.problem(for: PictureError.unsupportedType).response() : nil
    }

    static func put(_ request: Request, _ context: APIContext) async throws -> Response {
        let caller = try context.authenticate(request)
        let user = try await context.core.pictures.replace(
            for: caller.userID, mediaType: Array((request.header("Content-Type") ?? "").utf8), bytes: request.body
        )
        return JSONResponses.make(200, JSONResponses.user(user))
    }

    static func delete(_ request: Request, _ context: APIContext) async throws -> Response {
        let caller = try context.authenticate(request)
        return JSONResponses.make(200, JSONResponses.user(try await context.core.pictures.remove(for: caller.userID)))
    }
}
