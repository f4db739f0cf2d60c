import Foundation

/// The account's second factor (`GET /v1/auth/mfa`): whether an authenticator app's codes
/// are asked for at sign-in, and how many recovery codes are left unused.
public struct SecondFactorStatus: Sendable, Hashable {
    public let totpEnabled: Bool
    /// When the factor went live; nil while it is off.
    public let totpEnabledAt: Date?
    public let recoveryCodesLeft: Int
}

extension SecondFactorStatus: Decodable {
    private struct TOTP: Decodable {
        let enabled: Bool
        let createdAt: Date?
    }
    private enum CodingKeys: String, CodingKey { case totp, recoveryCodesLeft }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let totp = try container.decode(TOTP.self, forKey: .totp)
        (totpEnabled, totpEnabledAt) = (totp.enabled, totp.createdAt)
        recoveryCodesLeft = try container.decode(Int.self, forKey: .recoveryCodesLeft)
    }
}

/// A new authenticator-app secret, pending until `Latchkey.confirmTOTP(code:)`: show
/// `otpauthURI` as a QR code (or `secret` for typing in) once, and do not keep either.
public struct TOTPEnrollment: Decodable, Sendable, Hashable {
    /// Base32, 160 bits.
    public let secret: String
    public let otpauthURI: String
}

/// A sign-in that needs a second step (`LatchkeyError.secondFactorRequired`): the password
/// was right and the account has a live factor. Pass it with the user's code to
/// `Latchkey.completeSignIn(_:code:)`, or a recovery code to `completeSignIn(_:recoveryCode:)`,
/// within `expiresIn` seconds; it is good for one success and a few wrong codes.
public struct SecondFactorChallenge: Decodable, Sendable, Hashable {
    let mfaToken: String
    /// `totp`, `recoveryCode`.
    public let methods: [String]
    public let expiresIn: Int
}

/// What `POST /v1/auth/login` answers: a token pair, or the challenge of a second factor.
enum PasswordSignIn: Decodable {
    case signedIn(TokenPair)
    case secondFactorRequired(SecondFactorChallenge)

    private enum CodingKeys: String, CodingKey { case mfaRequired }

    init(from decoder: any Decoder) throws {
        let marker = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Bool.self, forKey: .mfaRequired)
        self = marker == true ? .secondFactorRequired(try SecondFactorChallenge(from: decoder)) : .signedIn(try TokenPair(from: decoder))
    }
}

struct RecoveryCodeList: Decodable {
    let recoveryCodes: [String]
}
