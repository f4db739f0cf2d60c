/// The contract's stable, machine-readable error `code` (docs/api.md). A struct rather than
/// an enum, so a code a later server adds still arrives intact; branch on the constants.
public struct ErrorCode: RawRepresentable, Codable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    public var description: String { rawValue }

    // Input
    public static let invalidArgument: ErrorCode = "INVALID_ARGUMENT"
    public static let malformedJSON: ErrorCode = "MALFORMED_JSON"
    public static let invalidEmail: ErrorCode = "INVALID_EMAIL"
    public static let weakPassword: ErrorCode = "WEAK_PASSWORD"
    public static let passwordsDoNotMatch: ErrorCode = "PASSWORDS_DO_NOT_MATCH"
    public static let displayNameInvalid: ErrorCode = "DISPLAY_NAME_INVALID"
    public static let displayNameTaken: ErrorCode = "DISPLAY_NAME_TAKEN"
    public static let emailExists: ErrorCode = "EMAIL_EXISTS"
    public static let emptyBody: ErrorCode = "EMPTY_BODY"
    public static let payloadTooLarge: ErrorCode = "PAYLOAD_TOO_LARGE"
    public static let unsupportedMediaType: ErrorCode = "UNSUPPORTED_MEDIA_TYPE"

    // Signing in and sessions
    public static let invalidLoginCredentials: ErrorCode = "INVALID_LOGIN_CREDENTIALS"
    public static let userDisabled: ErrorCode = "USER_DISABLED"
    public static let unauthenticated: ErrorCode = "UNAUTHENTICATED"
    public static let invalidToken: ErrorCode = "INVALID_TOKEN"
    public static let tokenExpired: ErrorCode = "TOKEN_EXPIRED"
    public static let sessionRevoked: ErrorCode = "SESSION_REVOKED"
    public static let invalidRefreshToken: ErrorCode = "INVALID_REFRESH_TOKEN"
    public static let refreshTokenReused: ErrorCode = "REFRESH_TOKEN_REUSED"
    /// An account without a password, from a session that signed in too long ago: sign in again.
    public static let recentLoginRequired: ErrorCode = "RECENT_LOGIN_REQUIRED"

    // A second factor
    public static let mfaAlreadyEnabled: ErrorCode = "MFA_ALREADY_ENABLED"
    public static let mfaNotPending: ErrorCode = "MFA_NOT_PENDING"
    public static let mfaCodeInvalid: ErrorCode = "MFA_CODE_INVALID"
    public static let mfaTokenInvalid: ErrorCode = "MFA_TOKEN_INVALID"

    // Passkeys
    public static let challengeInvalid: ErrorCode = "CHALLENGE_INVALID"
    /// With `Problem.reason`: `MALFORMED`, `TYPE`, `ORIGIN`, `RP_ID`, `USER_PRESENCE`,
    /// `USER_VERIFICATION`, `ALGORITHM`, `SIGNATURE`, `ATTESTATION`.
    public static let webAuthnInvalid: ErrorCode = "WEBAUTHN_INVALID"
    public static let passkeyExists: ErrorCode = "PASSKEY_EXISTS"
    public static let passkeyUnknown: ErrorCode = "PASSKEY_UNKNOWN"
    public static let lastSignInMethod: ErrorCode = "LAST_SIGN_IN_METHOD"

    // Sign-in providers (Apple, Google, OpenID Connect)
    /// With `Problem.reason`: `MALFORMED`, `SIGNATURE`, `ISSUER`, `AUDIENCE`, `EXPIRED`, `NONCE`.
    public static let idpTokenInvalid: ErrorCode = "IDP_TOKEN_INVALID"
    /// The provider's address belongs to an account it may not join: sign in the old way
    /// and link the provider from there.
    public static let accountExists: ErrorCode = "ACCOUNT_EXISTS"
    public static let identityInUse: ErrorCode = "IDENTITY_IN_USE"
    public static let idpUnavailable: ErrorCode = "IDP_UNAVAILABLE"

    // Links and mail
    public static let resetTokenInvalid: ErrorCode = "RESET_TOKEN_INVALID"
    public static let verifyTokenInvalid: ErrorCode = "VERIFY_TOKEN_INVALID"
    public static let emailAlreadyVerified: ErrorCode = "EMAIL_ALREADY_VERIFIED"

    // Lookups and the server's state
    public static let userNotFound: ErrorCode = "USER_NOT_FOUND"
    public static let notFound: ErrorCode = "NOT_FOUND"
    public static let conflict: ErrorCode = "CONFLICT"
    public static let tooManyAttempts: ErrorCode = "TOO_MANY_ATTEMPTS_TRY_LATER"
    public static let serviceUnavailable: ErrorCode = "SERVICE_UNAVAILABLE"
    public static let internalError: ErrorCode = "INTERNAL"

    // HTTP itself, answered before any endpoint runs
    public static let badRequest: ErrorCode = "BAD_REQUEST"
    public static let methodNotAllowed: ErrorCode = "METHOD_NOT_ALLOWED"
    public static let requestTimeout: ErrorCode = "REQUEST_TIMEOUT"
    public static let uriTooLong: ErrorCode = "URI_TOO_LONG"
    public static let headerFieldsTooLarge: ErrorCode = "HEADER_FIELDS_TOO_LARGE"
    public static let expectationFailed: ErrorCode = "EXPECTATION_FAILED"
    public static let notImplemented: ErrorCode = "NOT_IMPLEMENTED"
    public static let httpVersionNotSupported: ErrorCode = "HTTP_VERSION_NOT_SUPPORTED"

    /// Every code this client names, for a switch that wants to know whether it has them
    /// all; a test holds it equal to the server's list.
    public static let known: [ErrorCode] = [
        .invalidArgument, .malformedJSON, .invalidEmail, .weakPassword, .passwordsDoNotMatch, .displayNameInvalid,
        .displayNameTaken, .emailExists, .emptyBody, .payloadTooLarge, .unsupportedMediaType,
        .invalidLoginCredentials, .userDisabled, .unauthenticated, .invalidToken, .tokenExpired, .sessionRevoked,
        .invalidRefreshToken, .refreshTokenReused, .recentLoginRequired,
        .mfaAlreadyEnabled, .mfaNotPending, .mfaCodeInvalid, .mfaTokenInvalid,
        .challengeInvalid, .webAuthnInvalid, .passkeyExists, .passkeyUnknown, .lastSignInMethod,
        .idpTokenInvalid, .accountExists, .identityInUse, .idpUnavailable,
        .resetTokenInvalid, .verifyTokenInvalid, .emailAlreadyVerified,
        .userNotFound, .notFound, .conflict, .tooManyAttempts, .serviceUnavailable, .internalError,
        .badRequest, .methodNotAllowed, .requestTimeout, .uriTooLong, .headerFieldsTooLarge, .expectationFailed,
        .notImplemented, .httpVersionNotSupported,
    ]
}
