import HTTPSClient

/// Apple's token endpoints under `appleBaseURL`, as Apple lays them out: `/auth/token`
/// exchanges an authorization code for a refresh token, `/auth/revoke` revokes one. Each
/// call blocks its thread on the network (bounded by `HTTPSClient`'s deadlines), so it runs
/// off the event loops: on `AppleRefreshTokens`' pool or the revocation sender's thread.
public struct AppleTokenEndpoint: Sendable {
    let client: HTTPSClient
    let baseURL: String
    let secrets: AppleClientSecrets

    /// `baseURL` without a trailing slash, e.g. `https://appleid.apple.com`.
    public init(client: HTTPSClient, baseURL: String, secrets: AppleClientSecrets) {
        self.client = client
        self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        self.secrets = secrets
    }

    /// Apple's refresh token for `code`, which Apple issued to `clientID`, and its user.
    func exchange(code: String, clientID: String) throws(AppleTokenError) -> AppleTokenGrant {
        guard AppleTokenResponse.isPlausibleToken(Array(code.utf8)[...]) else { throw .malformedCode }
        let answer = try post("/auth/token", clientID: clientID, [("grant_type", "authorization_code"), ("code", code)])
        return try AppleTokenResponse.grant(in: answer.body)
    }

    /// Revokes `refreshToken` (and with it the user's authorization of the app). Apple
    /// answers 200 for a token it revoked and for one that was no longer valid.
    func revoke(refreshToken: String, clientID: String) throws(AppleTokenError) {
        _ = try post("/auth/revoke", clientID: clientID, [("token", refreshToken), ("token_type_hint", "refresh_token")])
    }

    /// A 200 answer, else the error Apple gave.
    private func post(_ path: String, clientID: String, _ form: [(name: String, value: String)]) throws(AppleTokenError) -> HTTPSResponse {
        let secret = secrets.secret(for: clientID, now: UnixTime.now())
        let answer: HTTPSResponse
        do {
            answer = try client.post(baseURL + path, form: form + [("client_id", clientID), ("client_secret", secret)])
        } catch {
            throw .unreachable(error)
        }
        guard answer.status == 200 else { throw .rejected(status: answer.status, error: AppleTokenResponse.errorCode(in: answer.body)) }
        return answer
    }
}
