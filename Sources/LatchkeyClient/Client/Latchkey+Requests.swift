import Foundation

/// How calls reach the server: signed-in calls carry the access token, refreshed ahead of
/// expiry; a 401 `TOKEN_EXPIRED` (or `INVALID_TOKEN`, a signing key the server retired)
/// refreshes once, shared with every other call that failed alike, and retries once. A 401
/// `SESSION_REVOKED` signs out.
extension Latchkey {
    /// Sends a signed-in call through `send`, given the token to use.
    func authorized(_ send: (String) async throws -> HTTPAnswer) async throws -> (answer: HTTPAnswer, epoch: Int) {
        var credential = try await state.credential()
        var answer = try await send(credential.accessToken)
        if answer.status == 401, let code = answer.problem?.code, code == .tokenExpired || code == .invalidToken {
            credential = try await state.renewed(after: credential)
            answer = try await send(credential.accessToken)
        }
        if let problem = answer.problem, SessionState.endsSession(problem) {
            await state.sessionEnded(epoch: credential.epoch)
            throw LatchkeyError.sessionEnded(problem)
        }
        return (answer, credential.epoch)
    }

    /// A signed-in call whose answer is JSON of type `T`.
    func authorized<T: Decodable>(_ request: APIRequest, as type: T.Type) async throws -> T {
        try await authorized { try await self.transport.send(request, token: $0) }.answer.decoded(type)
    }

    /// A signed-in call answered with nothing to read (202, 204).
    func authorized(_ request: APIRequest) async throws {
        try await authorized { try await self.transport.send(request, token: $0) }.answer.expectSuccess()
    }

    /// A signed-in call answered with the user, who is then recorded (and published on
    /// `authState` when changed).
    func authorizedUser(_ send: (String) async throws -> HTTPAnswer) async throws -> User {
        let (answer, epoch) = try await authorized(send)
        let user = try answer.decoded(User.self)
        await state.update(user, epoch: epoch)
        return user
    }

    /// A call without a token.
    func anonymous<T: Decodable>(_ request: APIRequest, as type: T.Type) async throws -> T {
        try await transport.send(request, token: nil).decoded(type)
    }

    /// A call without a token, answered with nothing to read.
    func anonymous(_ request: APIRequest) async throws {
        try await transport.send(request, token: nil).expectSuccess()
    }

    /// Signup, login and its second step: a token pair that starts a new session here. A
    /// password login for an account with a second factor answers its challenge instead,
    /// thrown as `LatchkeyError.secondFactorRequired`.
    func startSession(_ request: APIRequest) async throws -> User {
        let sentAt = Date()
        switch try await anonymous(request, as: PasswordSignIn.self) {
        case .signedIn(let pair): return await state.signIn(with: pair, sentAt: sentAt)
        case .secondFactorRequired(let challenge): throw LatchkeyError.secondFactorRequired(challenge)
        }
    }
}
