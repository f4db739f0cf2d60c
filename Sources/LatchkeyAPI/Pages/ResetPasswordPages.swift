import HTTPServer
import LatchkeyCore

/// `GET /reset-password?token=…` (the form behind the emailed link) and
/// `POST /reset-password` (the form sent back), working without JavaScript.
enum ResetPasswordPages {
    static func show(_ request: Request, _ context: APIContext) throws -> Response {
        guard let token = request.queryParameter("token"), !token.isEmpty, try context.core.passwordReset.isLive(token: token) else {
            return invalidLink()
        }
        return form(token: token, problem: nil, status: 200)
    }

    static func submit(_ request: Request, _ context: APIContext) async throws -> Response {
        let token = request.formField("token") ?? ""
        let password = request.formField("password") ?? ""
        guard password == request.formField("confirmPassword") ?? "" else {
            return form(token: token, problem: "The two passwords differ. Type the same password in both fields.", status: 400)
        }
        do {
            try await context.core.passwordReset.confirm(token: token, newPassword: password)
        } catch PasswordResetError.tokenInvalid {
            return invalidLink()
        } catch AccountError.invalid(let errors) {
            return form(token: token, problem: ErrorResponder.problem(for: errors.first).detail, status: 400)
        }
        return HTMLPage.response(status: 200, title: "Password changed", body: """
            <h1>Your password has been changed</h1>
            <p>You can sign in with it in the app now. Every device that was signed in has been signed out.</p>
            """)
    }

    private static func form(token: String, problem: String?, status: Int) -> Response {
        let error = problem.map { #"<p class="error" role="alert" id="problem">\#(HTMLText.escape($0))</p>"# } ?? ""
        let described = problem == nil ? "" : #" aria-describedby="problem""#
        return HTMLPage.response(status: status, title: "Choose a new password", body: """
            <h1>Choose a new password</h1>
            \(error)
            <form method="post" action="/reset-password">
            <input type="hidden" name="token" value="\(HTMLText.escape(token))">
            <label for="password">New password</label>
            <input id="password" name="password" type="password" autocomplete="new-password" required minlength="\(PasswordRules.minimumLength)" maxlength="\(PasswordRules.maximumLength)" autofocus\(described)>
            <p class="hint">At least \(PasswordRules.minimumLength) characters. A few unrelated words make a good one.</p>
            <label for="confirmPassword">Type it again</label>
            <input id="confirmPassword" name="confirmPassword" type="password" autocomplete="new-password" required>
            <button type="submit">Change password</button>
            </form>
            """)
    }

    private static func invalidLink() -> Response {
        HTMLPage.response(status: 400, title: "Link expired", body: """
            <h1>This link no longer works</h1>
            <p>Reset links work once and for an hour, and a newer request replaces older links. Ask for a new one from the app's sign-in screen.</p>
            """)
    }
}
