/// Every `code` a problem can carry (docs/api.md, "Error codes"): the contract's stable,
/// machine-readable names. The only place they are spelled; `LatchkeyClient.ErrorCode`
/// is held equal to this list by a test.
public enum WireCode: String, CaseIterable, Sendable {
    // Input
    case invalidArgument = "INVALID_ARGUMENT"
    case malformedJSON = "MALFORMED_JSON"
    case invalidEmail = "INVALID_EMAIL"
    case weakPassword = "WEAK_PASSWORD"
    case passwordsDoNotMatch = "PASSWORDS_DO_NOT_MATCH"
    case displayNameInvalid = "DISPLAY_NAME_INVALID"
    case displayNameTaken = "DISPLAY_NAME_TAKEN"
    case emailExists = "EMAIL_EXISTS"
    case emptyBody = "EMPTY_BODY"
    case payloadTooLarge = "PAYLOAD_TOO_LARGE"
    case unsupportedMediaType = "UNSUPPORTED_MEDIA_TYPE"

    // Signing in and sessions
    case invalidLoginCredentials = "INVALID_LOGIN_CREDENTIALS"
    case userDisabled = "USER_DISABLED"
    case unauthenticated = "UNAUTHENTICATED"
    case invalidToken = "INVALID_TOKEN"
    case tokenExpired = "TOKEN_EXPIRED"
    case sessionRevoked = "SESSION_REVOKED"
    case invalidRefreshToken = "INVALID_REFRESH_TOKEN"
    case refreshTokenReused = "REFRESH_TOKEN_REUSED"
    case recentLoginRequired = "RECENT_LOGIN_REQUIRED"

    // The second factor
    case mfaAlreadyEnabled = "MFA_ALREADY_ENABLED"
    case mfaNotPending = "MFA_NOT_PENDING"
    case mfaCodeInvalid = "MFA_CODE_INVALID"
    case mfaTokenInvalid = "MFA_TOKEN_INVALID"

    // Links and mail
    case resetTokenInvalid = "RESET_TOKEN_INVALID"
    case verifyTokenInvalid = "VERIFY_TOKEN_INVALID"
    case emailAlreadyVerified = "EMAIL_ALREADY_VERIFIED"

    // Passkeys
    case challengeInvalid = "CHALLENGE_INVALID"
    case webAuthnInvalid = "WEBAUTHN_INVALID"
    case passkeyExists = "PASSKEY_EXISTS"
    case passkeyUnknown = "PASSKEY_UNKNOWN"
    case lastSignInMethod = "LAST_SIGN_IN_METHOD"

    // Sign-in providers
    case idpTokenInvalid = "IDP_TOKEN_INVALID"
    case accountExists = "ACCOUNT_EXISTS"
    case identityInUse = "IDENTITY_IN_USE"
    case idpUnavailable = "IDP_UNAVAILABLE"

    // Lookups and the server's state
    case userNotFound = "USER_NOT_FOUND"
    case notFound = "NOT_FOUND"
    case conflict = "CONFLICT"
    case tooManyAttempts = "TOO_MANY_ATTEMPTS_TRY_LATER"
    case serviceUnavailable = "SERVICE_UNAVAILABLE"
    case internalError = "INTERNAL"

    // HTTP itself, answered by the engine before any handler
    case badRequest = "BAD_REQUEST"
    case methodNotAllowed = "METHOD_NOT_ALLOWED"
    case requestTimeout = "REQUEST_TIMEOUT"
    case uriTooLong = "URI_TOO_LONG"
    case headerFieldsTooLarge = "HEADER_FIELDS_TOO_LARGE"
    case expectationFailed = "EXPECTATION_FAILED"
    case notImplemented = "NOT_IMPLEMENTED"
    case httpVersionNotSupported = "HTTP_VERSION_NOT_SUPPORTED"
}
