import Foundation

/// One passkey of the signed-in account (`Latchkey.passkeys()`).
public struct Passkey: Decodable, Sendable, Hashable, Identifiable {
    /// The credential id, base64url.
    public let id: String
    /// The user's own name for it, such as "iPhone".
    public let name: String
    public let createdAt: Date
    /// The last sign-in with it; nil before the first.
    public let lastUsedAt: Date?
    /// Synced by its provider (iCloud Keychain, Google Password Manager), so it survives
    /// the loss of this device.
    public let backedUp: Bool
}

struct PasskeyList: Decodable {
    let passkeys: [Passkey]
}

/// What the server asks an authenticator to create (`PublicKeyCredentialCreationOptionsJSON`):
/// pass its pieces to the platform (`ASAuthorizationPlatformPublicKeyCredentialProvider`
/// on Apple platforms, `navigator.credentials.create` in a web view), then the platform's
/// answer to `Latchkey.registerPasskey(_:name:)`. The challenge is good once, for 5 minutes.
public struct PasskeyCreationOptions: Decodable, Sendable, Hashable {
    public struct RelyingParty: Decodable, Sendable, Hashable {
        public let id: String
        public let name: String
    }

    public struct UserEntity: Decodable, Sendable, Hashable {
        /// The account's opaque user handle (never the email or the user id).
        public var id: Data { handle.data }
        public let name: String
        public let displayName: String
        private let handle: Base64URLBytes

        private enum CodingKeys: String, CodingKey { case handle = "id", name, displayName }
    }

    struct CredentialDescriptor: Decodable, Sendable, Hashable {
        let id: Base64URLBytes
    }

    public var challenge: Data { challengeBytes.data }
    public let rp: RelyingParty
    public let user: UserEntity
    /// The account's passkeys, which the authenticator must not make again.
    public var excludedCredentialIDs: [Data] { (excludeCredentials ?? []).map(\.id.data) }

    private let challengeBytes: Base64URLBytes
    private let excludeCredentials: [CredentialDescriptor]?

    private enum CodingKeys: String, CodingKey { case challengeBytes = "challenge", rp, user, excludeCredentials }
}

/// What the server asks an authenticator to sign at sign-in
/// (`PublicKeyCredentialRequestOptionsJSON`): any passkey of this relying party will do.
public struct PasskeyRequestOptions: Decodable, Sendable, Hashable {
    public var challenge: Data { challengeBytes.data }
    public let rpId: String

    private let challengeBytes: Base64URLBytes

    private enum CodingKeys: String, CodingKey { case challengeBytes = "challenge", rpId }
}

/// A new passkey as the platform made it (`RegistrationResponseJSON`), for
/// `Latchkey.registerPasskey(_:name:)`.
public struct PasskeyRegistration: Sendable, Hashable {
    public let credentialID: Data
    public let clientDataJSON: Data
    public let attestationObject: Data

    public init(credentialID: Data, clientDataJSON: Data, attestationObject: Data) {
        (self.credentialID, self.clientDataJSON, self.attestationObject) = (credentialID, clientDataJSON, attestationObject)
    }
}

/// A passkey's signature of a sign-in challenge (`AuthenticationResponseJSON`), for
/// `Latchkey.signIn(withPasskey:)`.
public struct PasskeyAssertion: Sendable, Hashable {
    public let credentialID: Data
    public let clientDataJSON: Data
    public let authenticatorData: Data
    public let signature: Data
    public let userHandle: Data?

    public init(credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?) {
        (self.credentialID, self.clientDataJSON, self.authenticatorData) = (credentialID, clientDataJSON, authenticatorData)
        (self.signature, self.userHandle) = (signature, userHandle)
    }
}

/// The WebAuthn Level 3 JSON forms the server reads: the members every credential has
/// around its `response`.
private struct CredentialJSON<Response: Encodable>: Encodable {
    let id: String
    let rawId: Base64URLBytes
    let type = "public-key"
    let response: Response
    let clientExtensionResults: [String: String] = [:]

    init(credentialID: Data, response: Response) {
        (id, rawId, self.response) = (Base64URL.encode(credentialID), Base64URLBytes(credentialID), response)
    }
}

extension PasskeyRegistration: Encodable {
    private struct Response: Encodable {
        let clientDataJSON, attestationObject: Base64URLBytes
    }

    public func encode(to encoder: any Encoder) throws {
        let response = Response(clientDataJSON: .init(clientDataJSON), attestationObject: .init(attestationObject))
        try CredentialJSON(credentialID: credentialID, response: response).encode(to: encoder)
    }
}

extension PasskeyAssertion: Encodable {
    private struct Response: Encodable {
        let clientDataJSON, authenticatorData, signature: Base64URLBytes
        let userHandle: Base64URLBytes?
    }

    public func encode(to encoder: any Encoder) throws {
        let response = Response(
            clientDataJSON: .init(clientDataJSON), authenticatorData: .init(authenticatorData), signature: .init(signature),
            userHandle: userHandle.map(Base64URLBytes.init)
        )
        try CredentialJSON(credentialID: credentialID, response: response).encode(to: encoder)
    }
}
