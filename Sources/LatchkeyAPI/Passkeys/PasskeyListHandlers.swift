import HTTPServer
import LatchkeyCore

/// `GET /v1/auth/passkeys`, `PATCH` and `DELETE /v1/auth/passkeys/{id}`: the caller's own.
enum PasskeyListHandlers {
    static func list(_ request: Request, _ caller: Authenticated, _ reader: StoreReader, _ context: APIContext) throws -> Response {
        let passkeys = try context.core.passkeys.list(of: caller, reader: reader)
        return JSONResponses.make(200, PasskeyJSON.list(passkeys))
    }

    static func rename(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let passkey = try await context.core.passkeys.rename(caller, id: request.pathParameters["id"] ?? "", to: try body.string("name"))
        return JSONResponses.make(200, PasskeyJSON.passkey(passkey))
    }

    static func delete(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        try await context.core.passkeys.delete(
            caller, id: request.pathParameters["id"] ?? "", password: try body.stringIfPresent("password"), from: context.clientAddress(request))
        return JSONResponses.noContent()
    }
}
