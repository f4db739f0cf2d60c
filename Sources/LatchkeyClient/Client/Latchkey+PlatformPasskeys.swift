#if canImport(AuthenticationServices) && (os(iOS) || os(macOS) || os(visionOS))
import AuthenticationServices

/// Passkeys through the system's sheet (`ASAuthorizationPlatformPublicKeyCredentialProvider`):
/// the options come from the server, the system makes or uses the passkey (iCloud
/// Keychain or another provider), and its answer goes back to the server. The app needs the
/// Associated Domains entitlement `webcredentials:<webAuthnRPID>`, and the server lists the
/// app in `appleAppIDs` (README, "Passkeys"). The user closing the sheet throws
/// `ASAuthorizationError.canceled`.
extension Latchkey {
    /// Makes a passkey for the signed-in account and stores it on the server.
    @MainActor
    @discardableResult
    public func registerPasskey(name: String? = nil, anchor: ASPresentationAnchor) async throws -> Passkey {
        let options = try await passkeyCreationOptions()
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.rp.id)
        let request = provider.createCredentialRegistrationRequest(challenge: options.challenge, name: options.user.name, userID: options.user.id)
        request.userVerificationPreference = .required
        if #available(iOS 17.4, macOS 14.4, visionOS 1.1, *) {
            request.excludedCredentials = options.excludedCredentialIDs.map(ASAuthorizationPlatformPublicKeyCredentialDescriptor.init(credentialID:))
        }
        let credential = try await SystemPasskeySheet.perform(request, anchor: anchor)
        guard let made = credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration, let attestation = made.rawAttestationObject else {
            throw ASAuthorizationError(.failed)
        }
        let registration = PasskeyRegistration(credentialID: made.credentialID, clientDataJSON: made.rawClientDataJSON, attestationObject: attestation)
        return try await registerPasskey(registration, name: name)
    }

    /// Signs in with any passkey of this server the user picks: no email typed.
    @MainActor
    @discardableResult
    public func signInWithPasskey(anchor: ASPresentationAnchor) async throws -> User {
        let options = try await passkeyRequestOptions()
        let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: options.rpId)
        let request = provider.createCredentialAssertionRequest(challenge: options.challenge)
        request.userVerificationPreference = .required
        let credential = try await SystemPasskeySheet.perform(request, anchor: anchor)
        guard let signed = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion else { throw ASAuthorizationError(.failed) }
        let assertion = PasskeyAssertion(
            credentialID: signed.credentialID, clientDataJSON: signed.rawClientDataJSON, authenticatorData: signed.rawAuthenticatorData,
            signature: signed.signature, userHandle: signed.userID
        )
        return try await signIn(withPasskey: assertion)
    }
}

/// One request to the system's passkey sheet, as an async call. The controller holds its
/// delegate weakly, so the sheet keeps itself alive until the system answers.
@MainActor
private final class SystemPasskeySheet: NSObject {
    private let anchor: ASPresentationAnchor
    private var continuation: CheckedContinuation<any ASAuthorizationCredential, any Error>?
    private var keptAlive: SystemPasskeySheet?

    private init(anchor: ASPresentationAnchor) {
        self.anchor = anchor
    }

    static func perform(_ request: ASAuthorizationRequest, anchor: ASPresentationAnchor) async throws -> any ASAuthorizationCredential {
        let sheet = SystemPasskeySheet(anchor: anchor)
        return try await withCheckedThrowingContinuation { continuation in
            sheet.continuation = continuation
            sheet.keptAlive = sheet
            let controller = ASAuthorizationController(authorizationRequests: [request])
            controller.delegate = sheet
            controller.presentationContextProvider = sheet
            controller.performRequests()
        }
    }

    private func finish(_ result: Result<any ASAuthorizationCredential, any Error>) {
        continuation?.resume(with: result)
        continuation = nil
        keptAlive = nil
    }
}

extension SystemPasskeySheet: @preconcurrency ASAuthorizationControllerDelegate, @preconcurrency ASAuthorizationControllerPresentationContextProviding {
    func authorizationController(controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization) {
        finish(.success(authorization.credential))
    }

    func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error) {
        finish(.failure(error))
    }

    func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor {
        anchor
    }
}
#endif
