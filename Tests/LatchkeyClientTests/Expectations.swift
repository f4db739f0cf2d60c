import Foundation
import LatchkeyClient
import Testing

/// The `LatchkeyError` that `body` throws; a failure is recorded when it returns or throws
/// anything else.
func latchkeyError(
    _ body: () async throws -> Void, sourceLocation: SourceLocation = #_sourceLocation
) async -> LatchkeyError? {
    do {
        try await body()
        Issue.record("expected a LatchkeyError, and the call succeeded", sourceLocation: sourceLocation)
    } catch let error as LatchkeyError {
        return error
    } catch {
        Issue.record("expected a LatchkeyError, got \(error)", sourceLocation: sourceLocation)
    }
    return nil
}

/// Expects `body` to be refused by the server with `status` and `code`; returns the problem.
@discardableResult
func expectRefusal(
    _ status: Int, _ code: ErrorCode, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void
) async -> Problem? {
    let error = await latchkeyError(body, sourceLocation: sourceLocation)
    guard case .server(let problem)? = error else {
        if let error { Issue.record("expected the server's \(status) \(code), got \(error)", sourceLocation: sourceLocation) }
        return nil
    }
    #expect(problem.status == status && problem.code == code, "\(problem)", sourceLocation: sourceLocation)
    return problem
}

/// Expects `body` to find the session ended by the server with `code` (and signed out).
func expectSessionEnded(_ code: ErrorCode, sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async {
    let error = await latchkeyError(body, sourceLocation: sourceLocation)
    guard case .sessionEnded(let problem)? = error else {
        if let error { Issue.record("expected the session to end with \(code), got \(error)", sourceLocation: sourceLocation) }
        return
    }
    #expect(problem.status == 401 && problem.code == code, "\(problem)", sourceLocation: sourceLocation)
}

/// Expects `body` to fail for want of a signed-in user.
func expectNotSignedIn(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async {
    let error = await latchkeyError(body, sourceLocation: sourceLocation)
    guard case .notSignedIn? = error else {
        if let error { Issue.record("expected notSignedIn, got \(error)", sourceLocation: sourceLocation) }
        return
    }
}

/// Expects `body` to get no answer from the server (and returns how URLSession put it).
@discardableResult
func expectNetworkFailure(sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Void) async -> NetworkFailure? {
    let error = await latchkeyError(body, sourceLocation: sourceLocation)
    guard case .network(let failure)? = error else {
        if let error { Issue.record("expected a network failure, got \(error)", sourceLocation: sourceLocation) }
        return nil
    }
    return failure
}

extension InMemoryTokenStore {
    /// A store holding `session` as a device whose refresh is due holds it: the client
    /// refreshes before its next call (`expired` as well: it has no token it may still use).
    static func due(_ session: StoredSession, expired: Bool = false) -> InMemoryTokenStore {
        var due = session
        due.refreshAfter = .distantPast
        if expired { due.accessTokenExpiresAt = .distantPast }
        return InMemoryTokenStore(due)
    }
}
