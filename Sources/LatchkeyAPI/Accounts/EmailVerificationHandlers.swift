import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/verify-email` → 202 (a link is mailed), `POST /v1/auth/verify-email/confirm`
/// → 204, and `GET /verify-email?token=…`, the page the link opens.
enum EmailVerificationHandlers {
    static func request(_ request: Request, _ context: APIContext) async throws -> Response {
        let caller = try await context.authenticate(request)
        try context.throttle.admit(request, to: .mailedLinks)
        try await context.core.emailVerification.request(for: caller)
        return Response(status: 202, headers: [HTTPField(name: "Cache-Control", value: "no-store")])
    }

    static func confirm(_ request: Request, _ context: APIContext) async throws -> Response {
        try context.throttle.admit(request, to: .mailedLinks)
        let body = try JSONBody(request)
        try await context.core.emailVerification.confirm(token: try body.string("token"))
        return JSONResponses.noContent()
    }

    static func page(_ request: Request, _ context: APIContext) async throws -> Response {
        let text = context.pages
        do {
            try await context.core.emailVerification.confirm(token: request.queryParameter("token") ?? "")
        } catch EmailVerificationError.tokenInvalid {
            return HTMLPage.message(status: 400, title: text[.verifyExpiredTitle], text: text[.verifyExpiredText])
        } catch AccountError.emailExists {
            return HTMLPage.message(status: 400, title: text[.verifyTakenTitle], text: text[.verifyTakenText])
        }
        return HTMLPage.message(status: 200, title: text[.verifyDoneTitle], text: text[.verifyDoneText])
    }
}
