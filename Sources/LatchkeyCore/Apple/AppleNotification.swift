import FlatJSON

/// One of Apple's server-to-server notifications for Sign in with Apple, once its
/// signature checked out: the claims checked as an ID token's are (issuer, audience, times),
/// and its `events` claim (a JSON object inside a string, as Apple sends it) read. A pure
/// decision on the payload's bytes, the provider and the clock.
struct AppleNotification: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// The user stopped using Sign in with Apple with the app (`consent-revoked`), or
        /// deleted their Apple Account (`account-delete`).
        case consentRevoked, accountDeleted
        /// Mail forwarding to the user's private relay address stopped or resumed.
        case emailDisabled, emailEnabled
        /// A type Apple may add later: acknowledged and ignored.
        case other
    }

    let kind: Kind
    /// The Apple user (`sub` inside `events`): an identity's subject.
    let subject: String
    /// The `type` as Apple wrote it, for the audit log (a known one, else `other`).
    var typeName: String {
        switch kind {
        case .consentRevoked: "consent-revoked"
        case .accountDeleted: "account-delete"
        case .emailDisabled: "email-disabled"
        case .emailEnabled: "email-enabled"
        case .other: "other"
        }
    }

    /// Without an `exp`, a notification is taken for this long after its `iat`.
    static let maximumAgeWithoutExpiry: Double = 24 * 3600

    static func check(payload: [UInt8], provider: IdentityProvider, now: Int64) -> Result<AppleNotification, IDTokenFailure> {
        guard let object = IDTokenClaims.object(payload), let claims = try? IDTokenClaims(object), let iat = claims.iat,
              let text = object.string("events"), text.utf8.count <= 4096,
              let events = Array(text.utf8).withUnsafeBufferPointer({ FlatJSONObject(parsing: $0) }),
              let type = events.string("type"), let subject = events.string("sub"), !subject.isEmpty,
              subject.utf8.count <= IDTokenClaims.maximumSubjectBytes
        else { return .failure(.malformed) }
        guard let iss = claims.iss, provider.issuers.contains(where: { $0.utf8.elementsEqual(iss.utf8) }) else { return .failure(.issuer) }
        guard let audience = claims.audience,
              audience.contains(where: { aud in provider.clientIDs.contains { $0.utf8.elementsEqual(aud.utf8) } })
        else { return .failure(.audience) }
        let now = Double(now)
        let leeway = IDTokenClaims.leeway
        let expiry = claims.exp ?? iat + maximumAgeWithoutExpiry
        guard now <= expiry + leeway, iat <= now + leeway, claims.nbf.map({ $0 <= now + leeway }) ?? true else { return .failure(.expired) }
        return .success(AppleNotification(kind: kind(of: type), subject: subject))
    }

    private static func kind(of type: String) -> Kind {
        let bytes = type.utf8
        if bytes.elementsEqual("consent-revoked".utf8) { return .consentRevoked }
        if bytes.elementsEqual("account-delete".utf8) { return .accountDeleted }
        if bytes.elementsEqual("email-disabled".utf8) { return .emailDisabled }
        if bytes.elementsEqual("email-enabled".utf8) { return .emailEnabled }
        return .other
    }
}
