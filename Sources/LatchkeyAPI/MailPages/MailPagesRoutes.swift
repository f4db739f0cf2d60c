import HTTPServer

/// The pages a mailed link opens: confirming an address, choosing a new password. Opening
/// one only shows a form (a mail scanner that fetches links confirms nothing); the form's
/// POST acts.
enum MailPagesRoutes {
    static func bind(_ routes: inout Routes, _ context: APIContext) {
        let form: Routes.Admission = { head in
            head.hasMediaType("application/x-www-form-urlencoded") ? nil : APIProblem.unsupportedFormMediaType.response()
        }
        routes.read("/verify-email") { try VerifyEmailPages.show($0, $1, context) }
        routes.write("POST", "/verify-email", admit: form) { try await VerifyEmailPages.submit($0, context) }
        routes.read("/reset-password") { try ResetPasswordPages.show($0, $1, context) }
        routes.write("POST", "/reset-password", admit: form) { try await ResetPasswordPages.submit($0, context) }
    }
}
