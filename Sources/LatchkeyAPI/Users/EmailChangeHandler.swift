import HTTPServer
import LatchkeyCore

/// `POST /v1/users/me/email` → 202: a link to the new address, a notice to the old one.
enum EmailChangeHandler {
    private static let accepted: [UInt8] = {
        var json = JSONObjectWriter()
        json.field("message", "A confirmation link has been sent to the new address. Nothing changes until it is followed.")
        return json.finish()
    }()

    static func handle(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        try await context.accounts.requestEmailChange(
            caller, newEmail: try body.string("newEmail"), password: try body.string("password"), from: context.clientAddress(request)
        )
        return JSONResponses.make(202, accepted)
    }
}
