import HTTPServer
import LatchkeyCore

/// `GET /verify-email?token=…` (the page behind the emailed link: one button) and
/// `POST /verify-email` (the button), working without JavaScript. Opening the link changes
/// nothing: mail scanners and link previews fetch links nobody clicked, so only the form's
/// POST confirms an address or an email change.
enum VerifyEmailPages {
    static func show(_ request: Request, _ reader: StoreReader, _ context: APIContext) throws -> Response {
        guard let token = request.queryParameter("token"), !token.isEmpty, try context.core.emailVerification.isLive(token: token, reader: reader) else {
            return invalidLink(context.pages)
        }
        let text = context.pages
        return HTMLPage.response(status: 200, title: text[.verifyTitle], body: """
            <h1>\(HTMLText.escape(text[.verifyTitle]))</h1>
            <p>\(HTMLText.escape(text[.verifyText]))</p>
            <form method="post" action="/verify-email">
            <input type="hidden" name="token" value="\(HTMLText.escape(token))">
            <button type="submit">\(HTMLText.escape(text[.verifySubmit]))</button>
            </form>
            """)
    }

    static func submit(_ request: Request, _ context: APIContext) async throws -> Response {
        let text = context.pages
        let confirmed: EmailConfirmation
        do {
            confirmed = try await context.core.emailVerification.confirm(token: request.formField("token") ?? "")
        } catch EmailVerificationError.tokenInvalid {
            return invalidLink(text)
        } catch AccountError.emailExists {
            return HTMLPage.message(status: 400, title: text[.verifyTakenTitle], text: text[.verifyTakenText])
        }
        switch confirmed {
        case .addressVerified: return HTMLPage.message(status: 200, title: text[.verifyDoneTitle], text: text[.verifyDoneText])
        case .addressChanged: return HTMLPage.message(status: 200, title: text[.verifyChangedTitle], text: text[.verifyChangedText])
        }
    }

    private static func invalidLink(_ text: PageText) -> Response {
        HTMLPage.message(status: 400, title: text[.verifyExpiredTitle], text: text[.verifyExpiredText])
    }
}
