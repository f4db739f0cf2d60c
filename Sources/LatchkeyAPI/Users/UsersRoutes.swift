import HTTPServer

/// The caller's own account (profile, address, deletion), other users' public profiles
/// and display-name availability. The picture routes are `PicturesRoutes`.
enum UsersRoutes {
    static func bind(_ routes: inout Routes, _ context: APIContext) {
        let json = JSONBody.admission
        routes.read("/v1/users/me", auth: .bearer, MeHandlers.get)
        routes.write("PATCH", "/v1/users/me", auth: .bearer, admit: json) { try await MeHandlers.patch($0, $1, context) }
        routes.write("DELETE", "/v1/users/me", auth: .bearer, admit: json) { try await MeHandlers.delete($0, $1, context) }
        routes.write("POST", "/v1/users/me/email", auth: .bearer, admit: json, throttle: .mailedLinks) {
            try await EmailChangeHandler.handle($0, $1, context)
        }
        routes.read("/v1/users/{id}", auth: .bearer) { try PublicProfileHandler.handle($0, $1, $2, context) }
        routes.read("/v1/display-names/{name}", throttle: .displayNames) { try DisplayNameHandler.handle($0, $1, context) }
    }
}
