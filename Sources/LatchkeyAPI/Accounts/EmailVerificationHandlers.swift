import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/verify-email` → 202 (a link is mailed) and `POST /v1/auth/verify-email/confirm`
/// → 204; the pages the link opens are `VerifyEmailPages`.
enum EmailVerificationHandlers {
    static func request(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        try await context.core.emailVerification.request(for: caller)
        return Response(status: 202, headers: [HTTPField(name: "Cache-Control", value: "no-store")])
    }

    static func confirm(_ request: Request, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        try await context.core.emailVerification.confirm(token: try body.string("token"))
        return JSONResponses.noContent()
    }
}
