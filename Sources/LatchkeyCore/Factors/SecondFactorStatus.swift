/// `GET /v1/auth/mfa`: whether the account has a live factor and how many recovery codes
/// it has left. A pending factor (enrolled, not yet confirmed) reads as none.
public struct SecondFactorStatus: Sendable, Equatable {
    public let enabled: Bool
    /// When the live factor was turned on; nil without one.
    public let enabledAt: Int64?
    public let recoveryCodesLeft: Int
}

/// What enrolment shows the user once: the secret for typing in, and the URI for a QR code.
public struct TOTPEnrolment: Sendable {
    /// Base32, 160 bits.
    public let secret: String
    public let otpauthURI: String
}

extension TOTPEnrolment: CustomStringConvertible {
    public var description: String { "TOTPEnrolment(secret redacted)" }
}
