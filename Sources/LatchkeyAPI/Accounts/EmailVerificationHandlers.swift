import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/verify-email` → 202 (a link is mailed), `POST /v1/auth/verify-email/confirm`
/// → 204, and `GET /verify-email?token=…`, the page the link opens.
enum EmailVerificationHandlers {
    static func request(_ request: Request, _ context: APIContext) async throws -> Response {
        let caller = try context.authenticate(request)
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
        do {
            try await context.core.emailVerification.confirm(token: request.queryParameter("token") ?? "")
        } catch EmailVerificationError.tokenInvalid {
            return HTMLPage.response(status: 400, title: "Link expired", body: """
                <h1>This link no longer works</h1>
                <p>Verification links work once and for a day, and a newer request replaces older links. Ask for a new one in the app.</p>
                """)
        } catch AccountError.emailExists {
            return HTMLPage.response(status: 400, title: "Address taken", body: """
                <h1>This address is already in use</h1>
                <p>Another account registered this address in the meantime, so nothing was changed.</p>
                """)
        }
        return HTMLPage.response(status: 200, title: "Email confirmed", body: """
            <h1>Your email is confirmed</h1>
            <p>Thank you. You can go back to the app.</p>
            """)
    }
}
