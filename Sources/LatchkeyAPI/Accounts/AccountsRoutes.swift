import HTTPServer

/// Signing up and in, the password (changed, or reset by a mailed link) and the address's
/// verification. The pages behind the mailed links are `MailPagesRoutes`.
enum AccountsRoutes {
    static func bind(_ routes: inout Routes, _ context: APIContext) {
        let json = JSONBody.admission
        routes.write("POST", "/v1/auth/signup", admit: json, throttle: .signup) { try await SignupHandler.handle($0, context) }
        routes.write("POST", "/v1/auth/login", admit: json, throttle: .login) { try await LoginHandler.handle($0, context) }
        routes.write("POST", "/v1/auth/password", auth: .bearer, admit: json) { try await ChangePasswordHandler.handle($0, $1, context) }
        // Needs nothing but memory: the request is handed to the database writer and not
        // waited for (see `PasswordResetService.request`).
        routes.plain("POST", "/v1/auth/password-reset", admit: json, throttle: .mailedLinks) { try PasswordResetHandlers.request($0, context) }
        routes.write("POST", "/v1/auth/password-reset/confirm", admit: json, throttle: .mailedLinks) {
            try await PasswordResetHandlers.confirm($0, context)
        }
        routes.write("POST", "/v1/auth/verify-email", auth: .bearer, throttle: .mailedLinks) {
            try await EmailVerificationHandlers.request($0, $1, context)
        }
        routes.write("POST", "/v1/auth/verify-email/confirm", admit: json, throttle: .mailedLinks) {
            try await EmailVerificationHandlers.confirm($0, context)
        }
    }
}
