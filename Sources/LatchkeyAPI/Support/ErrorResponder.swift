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
        if let problem = error as? Problem { return problem.response() }
        // SQL and system errors carry no bound values or secrets, only what failed.
        logger.error("unhandled error: \(String(reflecting: type(of: error))): \(error)", metadata: [
            "request-id": "\(request.requestID)", "route": "\(request.method) \(request.path)",
        ])
        return Problem.internalError.response()
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
        default: nil
        }
    }

    /// A busy database is worth a retry in a moment; a uniqueness conflict no check
    /// foresaw means a concurrent change won; anything else is ours to log.
    static func problem(for error: StoreError) -> APIProblem? {
        switch error {
        case .busy: .serviceBusy
        case .conflict:
            APIProblem(status: 409, code: "CONFLICT", title: "Conflict",
                       detail: "Another change to the same data happened at the same moment. Please try again.")
        case .failed: nil
        }
    }

    static func problem(for error: PictureError) -> APIProblem {
        switch error {
        case .empty:
            APIProblem(status: 400, code: "EMPTY_BODY", title: "Empty body", detail: "Send the picture's bytes as the request body.")
        case .unsupportedType:
            APIProblem(status: 415, code: "UNSUPPORTED_MEDIA_TYPE", title: "Unsupported media type",
                       detail: "Send a JPEG, PNG or WebP picture with its Content-Type: image/jpeg, image/png or image/webp.")
        case .typeMismatch:
            APIProblem(status: 415, code: "UNSUPPORTED_MEDIA_TYPE", title: "Unsupported media type",
                       detail: "The bytes are not a picture of the type the Content-Type names.")
        case .unreadable:
            APIProblem(status: 415, code: "UNSUPPORTED_MEDIA_TYPE", title: "Unsupported media type",
                       detail: "The picture is damaged or cut short and cannot be stored.")
        case .tooLarge:
            APIProblem(status: 413, code: "PAYLOAD_TOO_LARGE", title: "Payload Too Large",
                       detail: "The picture is larger than this server accepts (maxPictureBytes).")
        }
    }

    static func problem(for error: PasswordResetError) -> APIProblem {
        switch error {
        case .tokenInvalid:
            APIProblem(status: 400, code: "RESET_TOKEN_INVALID", title: "Invalid reset link",
                       detail: "This reset link is unknown, already used or expired. Please ask for a new one.", field: "token")
        }
    }

    static func problem(for error: EmailVerificationError) -> APIProblem {
        switch error {
        case .alreadyVerified:
            APIProblem(status: 409, code: "EMAIL_ALREADY_VERIFIED", title: "Email already verified",
                       detail: "This email address is already verified.")
        case .tokenInvalid:
            APIProblem(status: 400, code: "VERIFY_TOKEN_INVALID", title: "Invalid verification link",
                       detail: "This verification link is unknown, already used or expired. Please ask for a new one.", field: "token")
        }
    }

    private static let bearerChallenge = [HTTPField(name: "WWW-Authenticate", value: "Bearer")]

    /// `/metrics` with `metricsToken` set, asked without that token (or with another).
    static let metricsTokenRequired = APIProblem(
        status: 401, code: "UNAUTHENTICATED", title: "Authentication required", detail: "Send Authorization: Bearer <metricsToken>.",
        headers: bearerChallenge
    )

    static func problem(for error: AccessError) -> APIProblem {
        let (code, title, detail) = switch error {
        case .unauthenticated: ("UNAUTHENTICATED", "Authentication required", "Send Authorization: Bearer <accessToken>.")
        case .invalidToken: ("INVALID_TOKEN", "Invalid token", "The access token is malformed, wrongly signed or signed with an unknown key.")
        case .tokenExpired: ("TOKEN_EXPIRED", "Token expired", "The access token has expired. Refresh it and try again.")
        case .sessionRevoked: ("SESSION_REVOKED", "Session revoked", "This session has ended. Please log in again.")
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
            return APIProblem(status: 409, code: "EMAIL_EXISTS", title: "Email already registered",
                              detail: "This email is already registered. Please log in.", field: "email")
        case .newEmailExists:
            return APIProblem(status: 409, code: "EMAIL_EXISTS", title: "Email already registered",
                              detail: "This email is already registered to another account.", field: "newEmail")
        case .displayNameTaken(let reserved):
            return APIProblem(status: 409, code: "DISPLAY_NAME_TAKEN", title: "Display name taken",
                              detail: reserved ? "This display name is reserved. Please choose another." : "This display name is taken. Please choose another.",
                              field: "displayName", reason: reserved ? "RESERVED" : "TAKEN")
        case .invalidCredentials:
            return APIProblem(status: 401, code: "INVALID_LOGIN_CREDENTIALS", title: "Invalid credentials",
                              detail: "The email or password is incorrect.", headers: bearerChallenge)
        case .userDisabled:
            return APIProblem(status: 403, code: "USER_DISABLED", title: "User disabled", detail: "This account has been disabled.")
        case .userNotFound:
            return APIProblem(status: 404, code: "USER_NOT_FOUND", title: "User not found", detail: "There is no user with this id.")
        }
    }

    /// Code, title, sentence and reason of one failed field. Exhaustive on purpose: a new
    /// rule does not compile until it has its own words here.
    static func problem(for failure: ValidationFailure) -> APIProblem.FieldError {
        let (code, title, detail, reason): (String, String, String, String?) = switch failure.rule {
        case .emailMissing:
            ("INVALID_EMAIL", "Invalid email", "Enter an email address.", nil)
        case .emailMalformed:
            ("INVALID_EMAIL", "Invalid email", "This is not a valid email address; it should look like name@example.com.", nil)
        case .emailTooLong:
            ("INVALID_EMAIL", "Invalid email", "This email address is too long; it can have at most \(EmailRules.maximumLength) characters.", nil)
        case .passwordTooShort:
            ("WEAK_PASSWORD", "Weak password", "This password is too short; use at least \(PasswordRules.minimumLength) characters.", nil)
        case .passwordTooLong:
            ("WEAK_PASSWORD", "Weak password", "This password is too long; use at most \(PasswordRules.maximumLength) characters.", nil)
        case .passwordCommon:
            ("WEAK_PASSWORD", "Weak password", "This password is too common and easy to guess; choose a less common one.", nil)
        case .passwordRepetitive:
            ("WEAK_PASSWORD", "Weak password", "This password repeats the same characters; choose one that does not.", nil)
        case .passwordSequential:
            ("WEAK_PASSWORD", "Weak password", "This password is a simple sequence (like 12345678 or abcdefgh); choose one that is not.", nil)
        case .passwordsDoNotMatch:
            ("PASSWORDS_DO_NOT_MATCH", "Passwords do not match", "The password confirmation does not match the password.", nil)
        case .displayName(let why):
            ("DISPLAY_NAME_INVALID", "Invalid display name", detail(for: why), why.rawValue)
        case .photoURL:
            ("INVALID_ARGUMENT", "Invalid argument",
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
            APIProblem(status: 401, code: "INVALID_REFRESH_TOKEN", title: "Invalid refresh token",
                       detail: "The refresh token is unknown, expired or revoked. Please log in again.", headers: bearerChallenge)
        case .refreshTokenReused:
            APIProblem(status: 401, code: "REFRESH_TOKEN_REUSED", title: "Refresh token reused",
                       detail: "This refresh token was already used; the session has been ended for safety. Please log in again.",
                       headers: bearerChallenge)
        case .notFound:
            APIProblem(status: 404, code: "NOT_FOUND", title: "Not found", detail: "You have no active session with this id.")
        }
    }
}
