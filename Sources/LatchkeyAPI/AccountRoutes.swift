import HTTPServer

/// The routes of docs/api.md: auth, users and display names, pictures, presence, the pages
/// behind mailed links. Cheap reads run inline on the loop, or on the store-read threads
/// where a read crosses the network (see `StoreReadRoutes`); anything that hashes or writes
/// runs off it (refresh, one write and a signature, answers straight from the database
/// writer). The password-reset request stays inline everywhere: it reads nothing, only
/// queues a write.
enum AccountRoutes {
    static func register(on router: inout Router, _ context: APIContext, reads: StoreReadRoutes) {
        let json = JSONBody.admission
        router.add("POST", "/v1/auth/signup", admit: json, offLoop: { try await SignupHandler.handle($0, context) })
        router.add("POST", "/v1/auth/login", admit: json, offLoop: { try await LoginHandler.handle($0, context) })
        router.add("POST", "/v1/auth/refresh", admit: json, .deferred { RefreshHandler.handle($0, context, $1) })
        router.add("POST", "/v1/auth/logout", offLoop: { try await LogoutHandlers.logout($0, context) })
        router.add("POST", "/v1/auth/logout-all", offLoop: { try await LogoutHandlers.logoutAll($0, context) })
        router.add("GET", "/v1/auth/sessions", reads.handler(SessionsHandlers.list))
        router.add("DELETE", "/v1/auth/sessions/{id}", offLoop: { try await SessionsHandlers.delete($0, context) })
        router.add("POST", "/v1/auth/password", admit: json, offLoop: { try await ChangePasswordHandler.handle($0, context) })
        router.add("POST", "/v1/auth/password-reset", admit: json, .inline { try PasswordResetHandlers.request($0, context) })
        router.add("POST", "/v1/auth/password-reset/confirm", admit: json, offLoop: { try await PasswordResetHandlers.confirm($0, context) })
        let form: @Sendable (RequestHead) -> Response? = { head in
            head.hasMediaType("application/x-www-form-urlencoded") ? nil : APIProblem.unsupportedFormMediaType.response()
        }
        router.add("POST", "/v1/auth/verify-email", offLoop: { try await EmailVerificationHandlers.request($0, context) })
        router.add("POST", "/v1/auth/verify-email/confirm", admit: json, offLoop: { try await EmailVerificationHandlers.confirm($0, context) })
        router.add("GET", "/verify-email", reads.handler(VerifyEmailPages.show))
        router.add("POST", "/verify-email", admit: form, offLoop: { try await VerifyEmailPages.submit($0, context) })
        router.add("GET", "/reset-password", reads.handler(ResetPasswordPages.show))
        router.add("POST", "/reset-password", admit: form, offLoop: { try await ResetPasswordPages.submit($0, context) })
        router.add("GET", "/v1/users/me", reads.bearerChecked(MeHandlers.get))
        router.add("PATCH", "/v1/users/me", admit: json, offLoop: { try await MeHandlers.patch($0, context) })
        router.add("DELETE", "/v1/users/me", admit: json, offLoop: { try await MeHandlers.delete($0, context) })
        router.add("POST", "/v1/users/me/email", admit: json, offLoop: { try await EmailChangeHandler.handle($0, context) })
        router.add("GET", "/v1/users/{id}", reads.handler(PublicProfileHandler.handle))
        router.add("GET", "/v1/display-names/{name}", reads.handler(DisplayNameHandler.handle))
        router.add("PUT", "/v1/users/me/photo", bodyLimit: context.maxPictureBytes, admit: PhotoHandlers.admission(context),
                   receiveBody: PhotoHandlers.receiveRaw(context), offLoop: { try await PhotoHandlers.put($0, context) })
        router.add("POST", "/v1/users/me/photo", bodyLimit: context.maxPictureBytes + PhotoHandlers.formOverhead,
                   admit: PhotoHandlers.formAdmission(context), receiveBody: PhotoHandlers.receiveForm(context),
                   offLoop: { try await PhotoHandlers.post($0, context) })
        router.add("DELETE", "/v1/users/me/photo", offLoop: { try await PhotoHandlers.delete($0, context) })
        router.add("GET", "/files/profile_pictures/{userId}/{name}", inline: { PictureFileHandler.get($0, context) })
        router.add("PUT", "/v1/presence", admit: json, offLoop: { try await PresenceHandlers.put($0, context) })
        router.add("GET", "/v1/presence", reads.handler(PresenceHandlers.batch))
        router.add("GET", "/v1/presence/stream", reads.handler(PresenceStreamHandler.open))
        router.add("GET", "/v1/presence/{userId}", reads.handler(PresenceHandlers.get))
    }
}
