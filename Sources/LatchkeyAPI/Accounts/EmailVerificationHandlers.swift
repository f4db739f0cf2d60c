import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/verify-email` → 202 (a link is mailed) and `POST /v1/auth/verify-email/confirm`
/// → 204; the pages the link opens are `VerifyEmailPages`.
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
}
