import HTTPServer
import LatchkeyCore

/// `GET /reset-password?token=…` (the form behind the emailed link) and
/// `POST /reset-password` (the form sent back), working without JavaScript.
enum ResetPasswordPages {
    static func show(_ request: Request, _ reader: StoreReader, _ context: APIContext) throws -> Response {
        guard let token = request.queryParameter("token"), !token.isEmpty, try context.core.passwordReset.isLive(token: token, reader: reader) else {
            return invalidLink(context.pages)
        }
        return form(token: token, problem: nil, status: 200, context.pages)
    }

    static func submit(_ request: Request, _ context: APIContext) async throws -> Response {
        let token = request.formField("token") ?? ""
        let password = request.formField("password") ?? ""
        guard password == request.formField("confirmPassword") ?? "" else {
            return form(token: token, problem: context.pages[.resetMismatch], status: 400, context.pages)
        }
        do {
            try await context.core.passwordReset.confirm(token: token, newPassword: password)
        } catch PasswordResetError.tokenInvalid {
            return invalidLink(context.pages)
        } catch AccountError.invalid(let errors) {
            return form(token: token, problem: ErrorResponder.problem(for: errors.first).detail, status: 400, context.pages)
        }
        return HTMLPage.message(status: 200, title: context.pages[.resetDoneTitle], text: context.pages[.resetDoneText])
    }

    private static func form(token: String, problem: String?, status: Int, _ text: PageText) -> Response {
        let error = problem.map { #"<p class="error" role="alert" id="problem">\#(HTMLText.escape($0))</p>"# } ?? ""
        let described = problem == nil ? "hint" : "problem hint"
        return HTMLPage.response(status: status, title: text[.resetTitle], body: """
            <h1>\(HTMLText.escape(text[.resetTitle]))</h1>
            \(error)
            <form method="post" action="/reset-password">
            <input type="hidden" name="token" value="\(HTMLText.escape(token))">
            <label for="password">\(HTMLText.escape(text[.resetNewPassword]))</label>
            <input id="password" name="password" type="password" autocomplete="new-password" required minlength="\(PasswordRules.minimumLength)" maxlength="\(PasswordRules.maximumLength)" autofocus aria-describedby="\(described)">
            <p class="hint" id="hint">\(HTMLText.escape(text[.resetHint]))</p>
            <label for="confirmPassword">\(HTMLText.escape(text[.resetConfirmPassword]))</label>
            <input id="confirmPassword" name="confirmPassword" type="password" autocomplete="new-password" required>
            <button type="submit">\(HTMLText.escape(text[.resetSubmit]))</button>
            </form>
            """)
    }

    private static func invalidLink(_ text: PageText) -> Response {
        HTMLPage.message(status: 400, title: text[.resetExpiredTitle], text: text[.resetExpiredText])
    }
}
