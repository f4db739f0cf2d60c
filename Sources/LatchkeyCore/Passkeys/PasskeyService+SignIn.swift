import AuthCrypto

extension PasskeyService {
    /// Request options with a fresh sign-in challenge, for anyone: the passkey is
    /// discoverable, so nobody says who they are before the assertion.
    public func signInOptions() -> RequestOptions {
        RequestOptions(challenge: challenges.make(now: UnixTime.now()), rpID: party.id)
    }

    /// An assertion, from a request body whose `credential` member is an
    /// `AuthenticationResponseJSON`: a session signed in by the passkey alone (`amr`
    /// webauthn and mfa). `deviceToken`, when the app sends one that is valid for the
    /// account, comes back in the pair; a passkey never makes a new one (device tokens
    /// spare a device the password throttle, and no password was typed).
    public func signIn(body: [UInt8], deviceToken: String?, from address: String, userAgent: String?) async throws -> TokenPair {
        let (form, clientData) = try Self.read(body)
        let (party, issuer, keys, challenges, known) = (party, issuer, keys, challenges, self.known)
        // Everything that needs no row is done before the write, not in it: the writer commits
        // every write in turn, and a signature check (an RSA key's above all) would hold all of
        // them back. The write then spends the challenge and finds the same key still there.
        let expiry = challenges.expiry(of: clientData.challenge, now: UnixTime.now())
        let checked = try known.credential(form.credentialID) {
            try database.read { db in try PasskeyStore.signInCredential(form.credentialID, on: db) }
        }.map { credential in
            (credential: credential, verdict: Self.verify(form, clientData, key: credential.publicKey, keys: keys, for: party))
        }
        let outcome = try await database.write { db -> Result<(user: User, refresh: String, sessionID: String, epoch: Int64), any Error> in
            let now = UnixTime.now()
            guard let expiry, now < expiry, try WebAuthnChallengeStore.spend(clientData.challenge, expiresAt: expiry, now: now, on: db) else {
                return .failure(PasskeyError.challengeInvalid)
            }
            guard let checked, let (stored, user, epoch) = try PasskeyStore.signInState(form.credentialID, on: db),
                  stored.publicKey == checked.credential.publicKey, stored.userID == checked.credential.userID
            else {
                known.forget(form.credentialID)
                try AuditStore.append(.loginFailed, address: address, detail: "passkey unknown", now: now, on: db)
                return .failure(PasskeyError.unknownCredential)
            }
            // The user handle is not signed over; one that names another account is a
            // response stitched together, not this credential's.
            if let handle = form.response["userHandle"] {
                guard let own = checked.credential.userHandle, ConstantTime.equals(handle, own) else {
                    try AuditStore.append(.loginFailed, user: stored.userID, address: address, detail: "passkey user handle", now: now, on: db)
                    return .failure(PasskeyError.unknownCredential)
                }
            }
            let assertion: WebAuthnCeremony.Assertion
            switch checked.verdict {
            case .success(let verified): assertion = verified
            case .failure(let failure):
                try AuditStore.append(.loginFailed, user: stored.userID, address: address, detail: "passkey \(failure.rawValue)", now: now, on: db)
                return .failure(PasskeyError.invalid(failure))
            }
            guard !user.disabled else {
                try AuditStore.append(.loginFailed, user: user.id, address: address, detail: "account disabled", now: now, on: db)
                return .failure(AccountError.userDisabled)
            }
            let counter = SignatureCounter(stored: stored.signCount, reported: Int64(assertion.signCount))
            try PasskeyStore.recordUse(form.credentialID, signCount: counter.kept, backedUp: assertion.backedUp, now: now, on: db)
            if counter.possibleClone {
                try AuditStore.append(.passkeyCloneWarning, user: user.id, address: address, detail: Base64URL.encode(form.credentialID), now: now, on: db)
            }
            try AccountStore.setPresence("online", for: user.id, now: now, on: db)
            let (refresh, sessionID) = try AccountService.startSession(for: user.id, by: .passkey, userAgent: userAgent, now: now, issuer: issuer, on: db)
            try AuditStore.append(.login, user: user.id, address: address, session: sessionID, detail: "passkey", now: now, on: db)
            return .success((user, refresh, sessionID, epoch))
        }
        let signedIn = try outcome.get()
        let pair = try issuer.pair(for: signedIn.user, sessionID: signedIn.sessionID, methods: .passkey, refreshToken: signedIn.refresh, now: UnixTime.now())
        guard let device = deviceToken.flatMap({ DeviceToken(verifying: $0, userID: signedIn.user.id, epoch: signedIn.epoch, key: issuer.deviceKey) }) else {
            return pair
        }
        return issuer.withDeviceToken(pair, userID: signedIn.user.id, epoch: signedIn.epoch, device: device)
    }

    /// The assertion's checks (client data, authenticator data, the signature) against a
    /// stored key.
    private static func verify(
        _ form: WebAuthnResponseJSON, _ clientData: ClientData, key: [UInt8], keys: PasskeyKeys, for party: RelyingParty
    ) -> Result<WebAuthnCeremony.Assertion, WebAuthnFailure> {
        do throws(WebAuthnFailure) {
            return .success(try WebAuthnCeremony.authenticate(
                authenticatorData: try form.member("authenticatorData"), clientData: clientData, signature: try form.member("signature"),
                storedKey: key, keys: keys, for: party))
        } catch {
            return .failure(error)
        }
    }
}
