import AuthCrypto

/// What a correct password buys an account with a live second factor instead of a
/// session: an opaque token, single use, valid `lifetime` seconds and for `maxWrongCodes`
/// wrong codes, that a correct code (or a recovery code) turns into the TokenPair.
public struct MFAChallenge: Sendable, Equatable {
    public static let lifetime: Int64 = 300
    public static let maxWrongCodes = 5
    /// What the answer may carry, in the contract's words.
    public static let methods = ["totp", "recoveryCode"]
    /// 32 random bytes, base64url without padding.
    static let tokenLength = 43

    public let token: String
    public var expiresIn: Int64 { Self.lifetime }

    /// A fresh challenge and the hash its row is stored under.
    static func make() -> (challenge: MFAChallenge, hash: [UInt8]) {
        let token = Base64URL.encode(SecureRandom.bytes(32))
        return (MFAChallenge(token: token), SHA256.hash(token.utf8))
    }

    /// The stored hash of a presented token; nil for anything that is not a token's shape,
    /// refused before any read.
    static func hash(of presented: String) -> [UInt8]? {
        guard presented.utf8.count == tokenLength, Base64URL.decode(presented) != nil else { return nil }
        return SHA256.hash(presented.utf8)
    }

    /// Whether a stored challenge may still be answered at `now`: unused, unexpired, wrong
    /// codes left, and the account's password unchanged since the login that opened it.
    static func isOpen(_ row: MFAChallengeStore.Row, now: Int64, passwordEpoch: Int64) -> Bool {
        !row.used && now < row.expiresAt && row.wrongCodes < maxWrongCodes && row.passwordEpoch == passwordEpoch
    }
}

extension MFAChallenge: CustomStringConvertible {
    /// A challenge interpolated into a log line shows no token.
    public var description: String { "MFAChallenge(token redacted)" }
}

/// What `POST /v1/auth/login` answers: a session, or, for an account with a live second
/// factor, the challenge that a code turns into one.
public enum LoginOutcome: Sendable {
    case signedIn(TokenPair)
    case secondFactorRequired(MFAChallenge)
}

/// What answers a challenge: a code from the authenticator app, or a recovery code. Bytes
/// from the network, compared as bytes.
public enum SecondFactorCode: Sendable {
    case totp([UInt8])
    case recoveryCode([UInt8])
}

/// Refusals of `POST /v1/auth/mfa/challenge`.
public enum MFAChallengeError: Error, Sendable, Equatable {
    /// Unknown, used, expired, out of wrong codes, or from before a password change.
    case tokenInvalid
    /// A wrong, malformed or replayed code, or a recovery code that is not (or no longer) one.
    case codeInvalid
}

/// Refusals of enrolling, confirming, removing and renewing the second factor.
public enum SecondFactorError: Error, Sendable, Equatable {
    /// Enrolment asked while a factor is live: remove it first.
    case alreadyEnabled
    /// A code to confirm, but no pending factor to confirm.
    case notPending
    /// No factor to remove, or no live factor to renew recovery codes for.
    case notFound
    /// The confirming code is not the pending secret's.
    case codeInvalid
}
