import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/idp/{provider}` → 201 TokenPair (a new account) or 200 (found);
/// `GET /v1/auth/identities`; `POST` and `DELETE /v1/auth/identities/{provider}`.
enum IdentityHandlers {
    /// `givenName` and `familyName` (Apple sends a name once, on the first sign-in) are
    /// read for their type and not kept: a provider's name is never claimed, and the app
    /// asks the user for a display name (`PATCH /v1/users/me`). `authorizationCode` is
    /// accepted and not used yet.
    static func signIn(_ request: Request, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let idToken = try body.string("idToken")
        let nonce = try body.optionalString("nonce")
        _ = try body.optionalString("authorizationCode")
        _ = try body.optionalString("givenName")
        _ = try body.optionalString("familyName")
        let signedIn = try await context.core.identities.signIn(
            provider: request.pathParameters["provider"] ?? "", idToken: idToken, nonce: nonce,
            deviceToken: try body.optionalString("deviceToken"), from: context.clientAddress(request), userAgent: context.userAgent(request))
        return JSONResponses.make(signedIn.created ? 201 : 200, JSONResponses.tokenPair(signedIn.pair))
    }

    static func list(_ request: Request, _ caller: Authenticated, _ reader: StoreReader, _ context: APIContext) throws -> Response {
        JSONResponses.make(200, IdentityJSON.list(try context.core.identities.list(of: caller, reader: reader)))
    }

    static func link(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let idToken = try body.string("idToken")
        let nonce = try body.optionalString("nonce")
        _ = try body.optionalString("authorizationCode")
        let identity = try await context.core.identities.link(
            caller, provider: request.pathParameters["provider"] ?? "", idToken: idToken, nonce: nonce, from: context.clientAddress(request))
        return JSONResponses.make(201, IdentityJSON.identity(identity))
    }

    static func unlink(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        try await context.core.identities.unlink(caller, provider: request.pathParameters["provider"] ?? "", from: context.clientAddress(request))
        return JSONResponses.noContent()
    }
}
