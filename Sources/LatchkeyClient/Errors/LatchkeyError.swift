import Foundation

/// Everything a `Latchkey` call throws (besides `CancellationError` when its task is
/// cancelled). Each case says what happened to the signed-in state, so an app knows
/// whether to show a login screen.
public enum LatchkeyError: Error, Sendable, Hashable {
    /// The server refused the request; the session, if any, is untouched.
    case server(Problem)
    /// The server ended this device's session (revoked elsewhere, a password change on
    /// another device, a reused or unknown refresh token): the client has signed out,
    /// cleared its token store and published nil on `authState`.
    case sessionEnded(Problem)
    /// No answer came (offline, refused, timed out). Nothing was signed out: try again.
    case network(NetworkFailure)
    /// The call needs a signed-in user and there is none.
    case notSignedIn
    /// An answer that is not the contract's, such as a proxy's error page.
    case unexpectedResponse(status: Int, body: String)
    /// The password was right, and the account asks for a second factor: nobody is signed
    /// in yet. Ask for the authenticator app's code and pass it with this challenge to
    /// `Latchkey.completeSignIn(_:code:)` (or a recovery code to `completeSignIn(_:recoveryCode:)`).
    case secondFactorRequired(SecondFactorChallenge)

    /// The problem details of a refusal or of the ending of a session.
    public var problem: Problem? {
        switch self {
        case .server(let problem), .sessionEnded(let problem): problem
        default: nil
        }
    }

    /// The contract's `code`, when the server answered with one.
    public var code: ErrorCode? { problem?.code }

    /// Seconds to wait before trying again, when the server said so.
    public var retryAfter: Int? { problem?.retryAfter }

    /// What to show beside `field` in a form (see `Problem.detail(for:)`).
    public func detail(for field: String) -> String? { problem?.detail(for: field) }
}

/// Why a request got no answer, kept as plain values so it is `Sendable` and comparable
/// on every platform.
public struct NetworkFailure: Sendable, Hashable, CustomStringConvertible {
    /// `URLError.Code`'s raw value when URLSession reported one (e.g. -1004, could not
    /// connect; -1001, timed out).
    public let urlErrorCode: Int?
    public let description: String

    public init(urlErrorCode: Int?, description: String) {
        self.urlErrorCode = urlErrorCode
        self.description = description
    }
}

extension LatchkeyError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .server(let problem), .sessionEnded(let problem): problem.detail
        case .network(let failure): "The server could not be reached (\(failure.description))."
        case .notSignedIn: "Nobody is signed in."
        case .unexpectedResponse(let status, _): "The server answered \(status) in a form this client does not know."
        case .secondFactorRequired: "A code from the authenticator app is needed to finish signing in."
        }
    }
}
