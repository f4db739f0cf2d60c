import HTTPServer
import LatchkeyCore
import Logging

/// The one place where errors become HTTP responses (status, code, headers). An error
/// that is not a known problem is a 500 `INTERNAL` whose cause goes to the log, never
/// to the client.
struct ErrorResponder: Sendable {
    let logger: Logger

    func response(for error: any Error, to request: Request) -> Response {
        if let problem = problem(for: error) { return problem.response() }
        // SQL and system errors carry no bound values or secrets, only what failed.
        logger.error("unhandled error: \(String(reflecting: type(of: error))): \(error)", metadata: [
            "request-id": "\(request.requestID)", "route": "\(request.method) \(request.path)",
        ])
        return Self.problem(for: Problem.internalError).response()
    }

    /// What `body` answers, or its error as a problem: for handlers answered through a
    /// sink, outside the engine's own error mapping.
    func answer(_ request: Request, _ body: () throws -> Response) -> Response {
        do {
            return try body()
        } catch {
            return response(for: error, to: request)
        }
    }

    func answer(_ request: Request, _ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch {
            return response(for: error, to: request)
        }
    }

    /// The engine's own failures, in the engine's words, with the contract's code: the
    /// server's `problemResponder`, so they render like every other problem.
    static func problem(for failure: Problem) -> APIProblem {
        let code: WireCode = switch failure {
        case .badRequest: .badRequest
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .requestTimeout: .requestTimeout
        case .payloadTooLarge: .payloadTooLarge
        case .uriTooLong: .uriTooLong
        case .headerFieldsTooLarge: .headerFieldsTooLarge
        case .expectationFailed: .expectationFailed
        case .notImplemented: .notImplemented
        case .versionNotSupported: .httpVersionNotSupported
        case .tooManyConnections: .serviceUnavailable
        case .internalError: .internalError
        }
        return APIProblem(status: failure.status, code: code, title: failure.title, detail: failure.detail)
    }

    private func problem(for error: any Error) -> APIProblem? {
        switch error {
        case let problem as APIProblem: problem
        case let error as AccessError: Self.problem(for: error)
        case let error as AccountError: Self.problem(for: error)
        case let error as SessionError: Self.problem(for: error)
        case let throttled as Throttled: .tooManyAttempts(retryAfter: throttled.retryAfter)
        case is HashingPoolSaturated: .serviceBusy
        case let error as StoreError: Self.problem(for: error)
        case let error as PasswordResetError: Self.problem(for: error)
        case let error as EmailVerificationError: Self.problem(for: error)
        case let error as PictureError: Self.problem(for: error)
        case let error as PasskeyError: Self.problem(for: error)
        case let error as SecondFactorError: Self.problem(for: error)
        case let error as MFAChallengeError: Self.problem(for: error)
        case let error as IdentityError: loggedProblem(for: error)
        default: nil
        }
    }

    /// A busy database is worth a retry in a moment; a uniqueness conflict no check
    /// foresaw means a concurrent change won; anything else is ours to log.
    static func problem(for error: StoreError) -> APIProblem? {
        switch error {
        case .busy: .serviceBusy
        case .conflict:
            APIProblem(status: 409, code: .conflict, title: "Conflict",
                       detail: "Another change to the same data happened at the same moment. Please try again.")
        case .failed: nil
        }
    }

    static func problem(for error: PictureError) -> APIProblem {
        switch error {
        case .empty:
            APIProblem(status: 400, code: .emptyBody, title: "Empty body", detail: "Send the picture's bytes as the request body.")
        case .unsupportedType:
            APIProblem(status: 415, code: .unsupportedMediaType, title: "Unsupported media type",
                       detail: "Send a JPEG, PNG or WebP picture with its Content-Type: image/jpeg, image/png or image/webp.")
        case .typeMismatch:
            APIProblem(status: 415, code: .unsupportedMediaType, title: "Unsupported media type",
                       detail: "The bytes are not a picture of the type the Content-Type names.")
        case .unreadable:
            APIProblem(status: 415, code: .unsupportedMediaType, title: "Unsupported media type",
                       detail: "The picture is damaged or cut short and cannot be stored.")
        case .tooLarge:
            APIProblem(status: 413, code: .payloadTooLarge, title: "Payload Too Large",
                       detail: "The picture is larger than this server accepts (maxPictureBytes).")
        }
    }

    static func problem(for error: PasskeyError) -> APIProblem {
        switch error {
        case .challengeInvalid:
            APIProblem(status: 400, code: .challengeInvalid, title: "Invalid challenge",
                       detail: "This challenge is unknown, already used, expired or not yours. Ask for new options and try again.")
        case .invalid(let failure):
            APIProblem(status: 400, code: .webAuthnInvalid, title: "Passkey response refused", detail: detail(for: failure),
                       reason: failure.rawValue)
        case .exists:
            APIProblem(status: 409, code: .passkeyExists, title: "Passkey already registered",
                       detail: "This passkey is already registered.")
        case .unknownCredential:
            APIProblem(status: 401, code: .passkeyUnknown, title: "Unknown passkey",
                       detail: "This passkey is not registered here, or was deleted. Sign in another way.", headers: bearerChallenge)
        case .notFound:
            APIProblem(status: 404, code: .notFound, title: "Not found", detail: "You have no passkey with this id.")
        case .lastSignInMethod:
            APIProblem(status: 409, code: .lastSignInMethod, title: "Last sign-in method",
                       detail: "This passkey is the only way left to sign in to this account; add another before deleting it.")
        case .nameInvalid(let why):
            .invalidArgument(field: "name", detail: why)
        }
    }

    /// The words of each `reason`. Exhaustive on purpose: a new check has its words here.
    static func detail(for failure: WebAuthnFailure) -> String {
        switch failure {
        case .malformed: "The credential is not a WebAuthn JSON response, or its base64url, CBOR or authenticator data is malformed."
        case .type: "The client data is for another ceremony."
        case .origin: "The client data comes from an origin this server does not accept."
        case .rpID: "The authenticator data is for another relying party ID."
        case .userPresence: "The authenticator did not report user presence."
        case .userVerification: "The authenticator did not report user verification."
        case .algorithm: "The passkey's key type or algorithm is not one of ES256, EdDSA or RS256."
        case .signature: "The signature does not verify with this passkey's key."
        case .attestation: "The attestation statement does not verify, or its format is not supported."
        }
    }

    /// A provider that cannot be reached is the operator's to know about: its reason (a
    /// URL, a status, a socket error; never a token) goes to the log.
    private func loggedProblem(for error: IdentityError) -> APIProblem {
        if case .providerUnavailable(let why) = error { logger.warning("sign-in provider keys unavailable: \(why)") }
        return Self.problem(for: error)
    }

    static func problem(for error: IdentityError) -> APIProblem {
        switch error {
        case .providerNotFound:
            APIProblem(status: 404, code: .notFound, title: "Not found", detail: "This server has no sign-in provider of that name.")
        case .tokenInvalid(let failure):
            APIProblem(status: 401, code: .idpTokenInvalid, title: "Identity token refused", detail: detail(for: failure),
                       reason: failure.rawValue, headers: bearerChallenge)
        case .accountExists:
            APIProblem(status: 409, code: .accountExists, title: "Account exists",
                       detail: "An account with this email address already exists. Sign in to it the usual way, then link this provider from the app's settings.")
        case .providerUnavailable:
            APIProblem(status: 503, code: .idpUnavailable, title: "Sign-in provider unavailable",
                       detail: "The sign-in provider's keys cannot be fetched right now. Please try again in a moment.",
                       headers: [HTTPField(name: "Retry-After", value: "30")])
        case .identityInUse(let otherAccount):
            APIProblem(status: 409, code: .identityInUse, title: "Identity in use",
                       detail: otherAccount
                           ? "This identity is linked to another account."
                           : "This account is already linked to another identity of this provider; unlink it first.")
        case .notFound:
            APIProblem(status: 404, code: .notFound, title: "Not found", detail: "This account has no identity of this provider.")
        case .lastSignInMethod:
            APIProblem(status: 409, code: .lastSignInMethod, title: "Last sign-in method",
                       detail: "This identity is the only way left to sign in to this account; add a passkey or another provider before unlinking it.")
        case .notificationInvalid(let failure):
            APIProblem(status: 400, code: .idpTokenInvalid, title: "Notification refused",
                       detail: "The notification's payload is not one Apple signed for this server's apps: \(detail(for: failure))",
                       reason: failure.rawValue)
        }
    }

    /// The words of each `reason`. Exhaustive on purpose: a new check has its words here.
    static func detail(for failure: IDTokenFailure) -> String {
        switch failure {
        case .malformed: "The identity token is not a JWT, or its claims are not those of an ID token."
        case .signature: "The identity token is not signed by a key of the provider, or not with RS256 or ES256."
        case .issuer: "The identity token was issued by someone other than this provider."
        case .audience: "The identity token was issued for an app this server does not accept."
        case .expired: "The identity token has expired, or is not valid yet. Sign in with the provider again."
        case .nonce: "The identity token's nonce does not match the one sent."
        }
    }

    static func problem(for error: PasswordResetError) -> APIProblem {
        switch error {
        case .tokenInvalid:
            APIProblem(status: 400, code: .resetTokenInvalid, title: "Invalid reset link",
                       detail: "This reset link is unknown, already used or expired. Please ask for a new one.", field: "token")
        }
    }

    static func problem(for error: EmailVerificationError) -> APIProblem {
        switch error {
        case .alreadyVerified:
            APIProblem(status: 409, code: .emailAlreadyVerified, title: "Email already verified",
                       detail: "This email address is already verified.")
        case .tokenInvalid:
            APIProblem(status: 400, code: .verifyTokenInvalid, title: "Invalid verification link",
                       detail: "This verification link is unknown, already used or expired. Please ask for a new one.", field: "token")
        }
    }

    static func problem(for error: SecondFactorError) -> APIProblem {
        switch error {
        case .alreadyEnabled:
            APIProblem(status: 409, code: .mfaAlreadyEnabled, title: "Second factor already enabled",
                       detail: "Two-factor sign-in is already on for this account. Remove it first to enrol a new authenticator.")
        case .notPending:
            APIProblem(status: 409, code: .mfaNotPending, title: "No second factor to confirm",
                       detail: "There is no pending authenticator to confirm. Start again with POST /v1/auth/mfa/totp.")
        case .notFound:
            APIProblem(status: 404, code: .notFound, title: "Not found", detail: "This account has no second factor.")
        case .codeInvalid:
            APIProblem(status: 400, code: .mfaCodeInvalid, title: "Invalid code",
                       detail: "This code is not the one the authenticator app shows now. Check the phone's clock and try the next code.",
                       field: "code")
        }
    }

    static func problem(for error: MFAChallengeError) -> APIProblem {
        switch error {
        case .tokenInvalid:
            APIProblem(status: 400, code: .mfaTokenInvalid, title: "Invalid MFA token",
                       detail: "This sign-in step is unknown, already used, expired or has had too many wrong codes. Please log in again.",
                       field: "mfaToken")
        case .codeInvalid:
            APIProblem(status: 401, code: .mfaCodeInvalid, title: "Invalid code",
                       detail: "This code is wrong or was already used. Enter the current code from the authenticator app, or a recovery code.",
                       headers: bearerChallenge)
        }
    }

    private static let bearerChallenge = [HTTPField(name: "WWW-Authenticate", value: "Bearer")]

    /// `/metrics` with `metricsToken` set, asked without that token (or with another).
    static let metricsTokenRequired = APIProblem(
        status: 401, code: .unauthenticated, title: "Authentication required", detail: "Send Authorization: Bearer <metricsToken>.",
        headers: bearerChallenge
    )

    static func problem(for error: AccessError) -> APIProblem {
        let (code, title, detail): (WireCode, String, String) = switch error {
        case .unauthenticated: (.unauthenticated, "Authentication required", "Send Authorization: Bearer <accessToken>.")
        case .invalidToken: (.invalidToken, "Invalid token", "The access token is malformed, wrongly signed or signed with an unknown key.")
        case .tokenExpired: (.tokenExpired, "Token expired", "The access token has expired. Refresh it and try again.")
        case .sessionRevoked: (.sessionRevoked, "Session revoked", "This session has ended. Please log in again.")
        }
        return APIProblem(status: 401, code: code, title: title, detail: detail, headers: bearerChallenge)
    }

    static func problem(for error: AccountError) -> APIProblem {
        switch error {
        case .invalid(let errors):
            let first = problem(for: errors.first)
            return APIProblem(
                status: 400, code: first.code, title: first.title, detail: first.detail, field: first.field, reason: first.reason,
                errors: errors.failures.map(problem(for:))
            )
        case .emailExists:
            return APIProblem(status: 409, code: .emailExists, title: "Email already registered",
                              detail: "This email is already registered. Please log in.", field: "email")
        case .newEmailExists:
            return APIProblem(status: 409, code: .emailExists, title: "Email already registered",
                              detail: "This email is already registered to another account.", field: "newEmail")
        case .displayNameTaken(let reserved):
            return APIProblem(status: 409, code: .displayNameTaken, title: "Display name taken",
                              detail: reserved ? "This display name is reserved. Please choose another." : "This display name is taken. Please choose another.",
                              field: "displayName", reason: DisplayNameReason.word(for: reserved ? .reserved : .taken))
        case .invalidCredentials:
            return APIProblem(status: 401, code: .invalidLoginCredentials, title: "Invalid credentials",
                              detail: "The email or password is incorrect.", headers: bearerChallenge)
        case .passwordRequired:
            return .invalidArgument(field: "password", detail: "This account has a password: send it to confirm this change.")
        case .recentLoginRequired:
            return APIProblem(status: 401, code: .recentLoginRequired, title: "Recent sign-in required",
                              detail: "This account has no password, so this change needs a sign-in from the last 5 minutes. Please sign in again, then retry.",
                              headers: bearerChallenge)
        case .userDisabled:
            return APIProblem(status: 403, code: .userDisabled, title: "User disabled", detail: "This account has been disabled.")
        case .userNotFound:
            return APIProblem(status: 404, code: .userNotFound, title: "User not found", detail: "There is no user with this id.")
        }
    }

    /// Code, title, sentence and reason of one failed field. Exhaustive on purpose: a new
    /// rule does not compile until it has its own words here.
    static func problem(for failure: ValidationFailure) -> APIProblem.FieldError {
        let (code, title, detail, reason): (WireCode, String, String, String?) = switch failure.rule {
        case .emailMissing:
            (.invalidEmail, "Invalid email", "Enter an email address.", nil)
        case .emailMalformed:
            (.invalidEmail, "Invalid email", "This is not a valid email address; it should look like name@example.com.", nil)
        case .emailTooLong:
            (.invalidEmail, "Invalid email", "This email address is too long; it can have at most \(EmailRules.maximumLength) characters.", nil)
        case .passwordTooShort:
            (.weakPassword, "Weak password", "This password is too short; use at least \(PasswordRules.minimumLength) characters.", nil)
        case .passwordTooLong:
            (.weakPassword, "Weak password", "This password is too long; use at most \(PasswordRules.maximumLength) characters.", nil)
        case .passwordCommon:
            (.weakPassword, "Weak password", "This password is too common and easy to guess; choose a less common one.", nil)
        case .passwordRepetitive:
            (.weakPassword, "Weak password", "This password repeats the same characters; choose one that does not.", nil)
        case .passwordSequential:
            (.weakPassword, "Weak password", "This password is a simple sequence (like 12345678 or abcdefgh); choose one that is not.", nil)
        case .passwordsDoNotMatch:
            (.passwordsDoNotMatch, "Passwords do not match", "The password confirmation does not match the password.", nil)
        case .displayName(let why):
            (.displayNameInvalid, "Invalid display name", detail(for: why), DisplayNameReason.word(for: .invalid(why)))
        case .photoURL:
            (.invalidArgument, "Invalid argument",
             "photoURL must be null or an https URL of at most \(ProfileChange.maxPhotoURLLength) characters.", nil)
        }
        return APIProblem.FieldError(field: failure.field, code: code, title: title, detail: detail, reason: reason)
    }

    static func detail(for reason: DisplayNameInvalidReason) -> String {
        switch reason {
        case .TOO_SHORT: "Display names need at least \(DisplayNameRules.minimumLength) characters."
        case .TOO_LONG: "Display names can have at most \(DisplayNameRules.maximumLength) characters."
        case .INVALID_CHARACTERS: "Display names can contain only letters A–Z, digits, underscores and periods."
        case .LEADING_OR_TRAILING_PERIOD: "Display names cannot start or end with a period."
        case .CONSECUTIVE_PERIODS: "Display names cannot contain two periods in a row."
        }
    }

    static func problem(for error: SessionError) -> APIProblem {
        switch error {
        case .invalidRefreshToken:
            APIProblem(status: 401, code: .invalidRefreshToken, title: "Invalid refresh token",
                       detail: "The refresh token is unknown, expired or revoked. Please log in again.", headers: bearerChallenge)
        case .refreshTokenReused:
            APIProblem(status: 401, code: .refreshTokenReused, title: "Refresh token reused",
                       detail: "This refresh token was already used; the session has been ended for safety. Please log in again.",
                       headers: bearerChallenge)
        case .notFound:
            APIProblem(status: 404, code: .notFound, title: "Not found", detail: "You have no active session with this id.")
        }
    }
}
