import AuthCrypto
import FoundationEssentials

/// What a provider's ID token says about its user, once its signature and claims passed
/// (`IDTokenClaims.check`).
struct VerifiedIdentity: Sendable {
    let subject: String
    let email: String?
    let emailVerified: Bool
    /// The provider's own `amr` says a second factor was used.
    let multiFactor: Bool
    /// The configured client id the token's `aud` named (Apple's code exchange is for it).
    let clientID: String
}

/// The claims of an ID token (OpenID Connect Core 2), checked as docs/api.md lists them: a
/// pure decision on the payload's bytes, the provider and the clock.
struct IDTokenClaims: Decodable {
    let iss: String?
    let aud: Audience?
    let sub: String?
    let exp: Double?
    let iat: Double?
    let nbf: Double?
    let nonce: String?
    let email: String?
    let email_verified: FlexibleBool?
    let amr: [String]?

    /// `aud` is one string or an array of them.
    enum Audience: Decodable {
        case one(String)
        case many([String])

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let one = try? container.decode(String.self) {
                self = .one(one)
            } else {
                self = .many(try container.decode([String].self))
            }
        }

        var values: [String] {
            switch self {
            case .one(let value): [value]
            case .many(let values): values
            }
        }
    }

    /// Apple sends `email_verified` as the string "true" or "false", Google as a boolean.
    struct FlexibleBool: Decodable {
        let value: Bool

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let bool = try? container.decode(Bool.self) {
                value = bool
            } else {
                value = try container.decode(String.self).utf8.elementsEqual("true".utf8)
            }
        }
    }

    /// The provider's leeway on `exp`, `iat` and `nbf`: the server's own (`AccessTokenVerifier`).
    static let leeway = Double(AccessTokenVerifier.leeway)
    /// OpenID Connect's limit on `sub`.
    static let maximumSubjectBytes = 255

    /// The checks after the signature, in the order of `IDTokenFailure`: issuer, audience,
    /// times, nonce. `bodyNonce` is the nonce the app sent, if it sent one.
    static func check(
        payload: [UInt8], provider: IdentityProvider, bodyNonce: String?, now: Int64
    ) -> Result<VerifiedIdentity, IDTokenFailure> {
        guard let claims = try? JSONDecoder().decode(IDTokenClaims.self, from: Data(payload)),
              let subject = claims.sub, !subject.isEmpty, subject.utf8.count <= maximumSubjectBytes, let exp = claims.exp
        else { return .failure(.malformed) }
        guard let iss = claims.iss, provider.issuers.contains(where: { $0.utf8.elementsEqual(iss.utf8) }) else { return .failure(.issuer) }
        guard let audience = claims.aud?.values,
              let clientID = provider.clientIDs.first(where: { id in audience.contains { $0.utf8.elementsEqual(id.utf8) } })
        else { return .failure(.audience) }
        let now = Double(now)
        guard now <= exp + leeway, claims.iat.map({ $0 <= now + leeway }) ?? true, claims.nbf.map({ $0 <= now + leeway }) ?? true else {
            return .failure(.expired)
        }
        guard nonceMatches(token: claims.nonce, body: bodyNonce, hashedAllowed: provider.acceptsHashedNonce) else { return .failure(.nonce) }
        let email = claims.email.flatMap { $0.isEmpty ? nil : $0 }
        return .success(VerifiedIdentity(
            subject: subject, email: email, emailVerified: email != nil && claims.email_verified?.value == true,
            multiFactor: claims.amr?.contains { $0.utf8.elementsEqual("mfa".utf8) } ?? false, clientID: clientID))
    }

    /// When either side has a nonce, both must, and they must be equal as bytes (or, where
    /// the provider hashes it, the token's the SHA-256 hex of the body's).
    static func nonceMatches(token: String?, body: String?, hashedAllowed: Bool) -> Bool {
        switch (token, body) {
        case (nil, nil): return true
        case (let token?, let body?):
            if ConstantTime.equals(Array(token.utf8), Array(body.utf8)) { return true }
            guard hashedAllowed else { return false }
            let hex = SHA256.hash(Array(body.utf8)).map { byte in
                let digits = Array("0123456789abcdef".utf8)
                return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
            }.joined()
            return ConstantTime.equals(Array(token.utf8), Array(hex.utf8))
        default: return false
        }
    }
}
