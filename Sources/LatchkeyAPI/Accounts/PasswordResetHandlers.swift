import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/password-reset` → 202, the same whatever the address;
/// `POST /v1/auth/password-reset/confirm` → 204, every session ended.
enum PasswordResetHandlers {
    private static let accepted: [UInt8] = {
        var json = JSONObjectWriter()
        json.field("message", "If this email is registered, a reset link has been sent.")
        return json.finish()
    }()

    static func request(_ request: Request, _ context: APIContext) throws -> Response {
        let body = try JSONBody(request)
        try context.core.passwordReset.request(email: try body.string("email"))
        return JSONResponses.make(202, accepted)
    }

    static func confirm(_ request: Request, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        try await context.core.passwordReset.confirm(token: try body.string("token"), newPassword: try body.string("newPassword"))
        return JSONResponses.noContent()
    }
}
