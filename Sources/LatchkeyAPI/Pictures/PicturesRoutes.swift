import HTTPServer

/// The caller's profile picture (set as a raw body or a form, removed) and the stored
/// pictures themselves, public by URL.
enum PicturesRoutes {
    static func bind(_ routes: inout Routes, _ context: APIContext) {
        let limit = context.maxPictureBytes
        routes.write("PUT", "/v1/users/me/photo", auth: .bearer, bodyLimit: limit, admit: PhotoHandlers.pictureMediaType,
                     receiveBody: PhotoHandlers.receiveRaw(context)) { try await PhotoHandlers.put($0, $1, context) }
        routes.write("POST", "/v1/users/me/photo", auth: .bearer, bodyLimit: limit + PhotoHandlers.formOverhead, admit: PhotoHandlers.formMediaType,
                     receiveBody: PhotoHandlers.receiveForm(context)) { try await PhotoHandlers.post($0, $1, context) }
        routes.write("DELETE", "/v1/users/me/photo", auth: .bearer) { try await PhotoHandlers.delete($0, $1, context) }
        routes.plain("GET", "/files/profile_pictures/{userId}/{name}") { PictureFileHandler.get($0, context) }
    }
}
