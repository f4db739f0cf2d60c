import AuthCrypto
import FlatJSON

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
struct IDTokenClaims {
    let iss: String?
    /// `aud`: one string or an array of them.
    let audience: [String]?
    let sub: String?
    let exp: Double?
    let iat: Double?
    let nbf: Double?
    let nonce: String?
    let email: String?
    let emailVerified: Bool?
    let amr: [String]?

    /// The claims of a payload, each absent, `null` or of its type; nil when the payload is
    /// not one JSON object or a claim has another type. Read by `FlatJSONObject`, not
    /// Foundation's `JSONDecoder`, which was 6% of the machine in a profile of provider sign-ins.
    init?(payload: [UInt8]) {
        guard let object = Self.object(payload), let claims = try? IDTokenClaims(object) else { return nil }
        self = claims
    }

    /// A payload as a JSON object whose arrays of strings are kept (`aud`, `amr`).
    static func object(_ payload: [UInt8]) -> FlatJSONObject? {
        payload.withUnsafeBufferPointer { FlatJSONObject(parsing: $0, keepingStringArrays: true) }
    }

    init(_ claims: FlatJSONObject) throws(WrongType) {
        iss = try Self.claim(claims["iss"], Self.string)
        audience = try Self.claim(claims["aud"], Self.strings)
        sub = try Self.claim(claims["sub"], Self.string)
        exp = try Self.claim(claims["exp"], Self.time)
        iat = try Self.claim(claims["iat"], Self.time)
        nbf = try Self.claim(claims["nbf"], Self.time)
        nonce = try Self.claim(claims["nonce"], Self.string)
        email = try Self.claim(claims["email"], Self.string)
        emailVerified = try Self.claim(claims["email_verified"], Self.flexibleBool)
        amr = try Self.claim(claims["amr"]) { if case .strings(let values) = $0 { values } else { nil } }
    }

    /// A claim of another type than its own.
    struct WrongType: Error {}

    /// `value` read by `read`: nil when absent or `null`, `WrongType` when `read` refuses it.
    static func claim<T>(_ value: FlatJSONObject.Value?, _ read: (FlatJSONObject.Value) -> T?) throws(WrongType) -> T? {
        guard let value, value != .null else { return nil }
        guard let read = read(value) else { throw WrongType() }
        return read
    }

    static func string(_ value: FlatJSONObject.Value) -> String? {
        if case .string(let text) = value { text } else { nil }
    }

    /// NumericDate: seconds, an integer or not; a number too large for a Double (which
    /// reads as infinity, a token that never expires) is of another type.
    static func time(_ value: FlatJSONObject.Value) -> Double? {
        switch value {
        case .integer(let seconds): Double(seconds)
        case .number(let seconds) where seconds.isFinite: seconds
        default: nil
        }
    }

    /// `aud`: one string or an array of them.
    static func strings(_ value: FlatJSONObject.Value) -> [String]? {
        switch value {
        case .string(let one): [one]
        case .strings(let many): many
        default: nil
        }
    }

    /// Apple sends `email_verified` as the string "true" or "false", Google as a boolean.
    static func flexibleBool(_ value: FlatJSONObject.Value) -> Bool? {
        switch value {
        case .bool(let bool): bool
        case .string(let text): text.utf8.elementsEqual("true".utf8)
        default: nil
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
        guard let claims = IDTokenClaims(payload: payload),
              let subject = claims.sub, !subject.isEmpty, subject.utf8.count <= maximumSubjectBytes, let exp = claims.exp
        else { return .failure(.malformed) }
        guard let iss = claims.iss, provider.issuers.contains(where: { $0.utf8.elementsEqual(iss.utf8) }) else { return .failure(.issuer) }
        guard let audience = claims.audience,
              let clientID = provider.clientIDs.first(where: { id in audience.contains { $0.utf8.elementsEqual(id.utf8) } })
        else { return .failure(.audience) }
        let now = Double(now)
        guard now <= exp + leeway, claims.iat.map({ $0 <= now + leeway }) ?? true, claims.nbf.map({ $0 <= now + leeway }) ?? true else {
            return .failure(.expired)
        }
        guard nonceMatches(token: claims.nonce, body: bodyNonce, hashedAllowed: provider.acceptsHashedNonce) else { return .failure(.nonce) }
        let email = claims.email.flatMap { $0.isEmpty ? nil : $0 }
        return .success(VerifiedIdentity(
            subject: subject, email: email, emailVerified: email != nil && claims.emailVerified == true,
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
