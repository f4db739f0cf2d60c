import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/mfa/challenge` `{mfaToken, code}` or `{mfaToken, recoveryCode}` → 200 TokenPair.
enum MFAChallengeHandler {
    static func handle(_ request: Request, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let token = try body.string("mfaToken")
        let code: SecondFactorCode = switch (try body.optionalString("code"), try body.optionalString("recoveryCode")) {
        case (let code?, nil): .totp(Array(code.utf8))
        case (nil, let recoveryCode?): .recoveryCode(Array(recoveryCode.utf8))
        default: throw APIProblem.invalidArgument(field: "code", detail: "Send either code or recoveryCode, not both.")
        }
        let pair = try await context.core.secondFactor.answer(
            challenge: token, with: code, from: context.clientAddress(request), userAgent: context.userAgent(request)
        )
        return JSONResponses.make(200, JSONResponses.tokenPair(pair))
    }
}
