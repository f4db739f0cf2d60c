import HTTPServer
import LatchkeyCore

/// `GET /v1/auth/mfa`, `POST` and `DELETE /v1/auth/mfa/totp`, `POST /v1/auth/mfa/totp/verify`
/// and `POST /v1/auth/mfa/recovery-codes`: the caller's own second factor.
enum SecondFactorHandlers {
    static func status(_ request: Request, _ caller: Authenticated, _ reader: StoreReader, _ context: APIContext) throws -> Response {
        let status = try context.core.secondFactor.status(of: caller, reader: reader)
        return JSONResponses.make(200, FactorResponses.status(status))
    }

    static func enrol(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let enrolment = try await context.core.secondFactor.enrol(
            caller, password: try body.string("password"), from: context.clientAddress(request)
        )
        return JSONResponses.make(200, FactorResponses.enrolment(enrolment))
    }

    static func confirm(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let codes = try await context.core.secondFactor.confirm(
            caller, code: Array(try body.string("code").utf8), from: context.clientAddress(request)
        )
        return JSONResponses.make(200, FactorResponses.recoveryCodes(codes))
    }

    static func remove(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        try await context.core.secondFactor.remove(caller, password: try body.string("password"), from: context.clientAddress(request))
        return JSONResponses.noContent()
    }

    static func renewRecoveryCodes(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let codes = try await context.core.secondFactor.renewRecoveryCodes(
            caller, password: try body.string("password"), from: context.clientAddress(request)
        )
        return JSONResponses.make(200, FactorResponses.recoveryCodes(codes))
    }
}
