import HTTPServer
import LatchkeyCore

/// `POST /v1/auth/idp/{provider}` → 201 TokenPair (a new account) or 200 (found);
/// `GET /v1/auth/identities`; `POST` and `DELETE /v1/auth/identities/{provider}`.
enum IdentityHandlers {
    /// `givenName` and `familyName` (Apple sends a name once, on the first sign-in) are
    /// read for their type and not kept: a provider's name is never claimed, and the app
    /// asks the user for a display name (`PATCH /v1/users/me`). Apple's `authorizationCode`
    /// is exchanged for Apple's refresh token when Apple's server settings are present.
    static func signIn(_ request: Request, _ context: APIContext) async throws -> Response {
        let body = try JSONBody(request)
        let idToken = try body.string("idToken")
        let nonce = try body.optionalString("nonce")
        let code = try body.optionalString("authorizationCode")
        _ = try body.optionalString("givenName")
        _ = try body.optionalString("familyName")
        let signedIn = try await context.core.identities.signIn(
            provider: request.pathParameters["provider"] ?? "", idToken: idToken, nonce: nonce, authorizationCode: code,
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
        let code = try body.optionalString("authorizationCode")
        let identity = try await context.core.identities.link(
            caller, provider: request.pathParameters["provider"] ?? "", idToken: idToken, nonce: nonce, authorizationCode: code,
            from: context.clientAddress(request))
        return JSONResponses.make(201, IdentityJSON.identity(identity))
    }

    /// `POST /v1/auth/idp/apple/notifications` `{"payload": JWT}` → 200 `{}` once acted on
    /// (or ignored: an unknown user or type).
    static func appleNotification(_ request: Request, _ context: APIContext) async throws -> Response {
        let payload = try JSONBody(request).string("payload")
        try await context.core.appleNotifications.receive(payload, from: context.clientAddress(request))
        return JSONResponses.make(200, Array("{}".utf8))
    }

    static func unlink(_ request: Request, _ caller: Authenticated, _ context: APIContext) async throws -> Response {
        try await context.core.identities.unlink(caller, provider: request.pathParameters["provider"] ?? "", from: context.clientAddress(request))
        return JSONResponses.noContent()
    }
}
