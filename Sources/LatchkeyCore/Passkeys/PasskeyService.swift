import AuthCrypto

/// Passkeys of a signed-in account: the registration ceremony, the list, renaming and
/// deleting. Signing in with one is `PasskeyService+SignIn.swift`.
///
/// Each ceremony's second step runs in one write: the challenge is taken out of the table,
/// the response checked, and the outcome stored. A refusal is returned out of the write
/// rather than thrown inside it, so it commits too: the challenge is spent whether the
/// answer was good or bad.
public struct PasskeyService: Sendable {
    let database: Database
    let issuer: TokenIssuer
    let party: RelyingParty
    let events: AccountEvents
    let accounts: AccountService
    let mailQueued: @Sendable () -> Void
    /// Built public keys, kept across sign-ins.
    let keys = PasskeyKeys()
    /// Stored credentials a sign-in checks before its write, kept across sign-ins.
    let known = KnownCredentials()
    /// Sign-in challenges: made and checked without a row (`LoginChallenges`).
    let challenges: LoginChallenges

    public var relyingParty: RelyingParty { party }

    /// Creation options with a fresh registration challenge for the caller's account.
    public func registrationOptions(for caller: Authenticated) async throws -> CreationOptions {
        let (challenge, handle, excluded) = try await database.write { db in
            let now = UnixTime.now()
            let handle = try PasskeyStore.userHandle(of: caller.userID, making: true, on: db) ?? []
            let challenge = try WebAuthnChallengeStore.makeRegistration(for: caller.userID, now: now, on: db)
            return (challenge, handle, try PasskeyStore.credentialIDs(of: caller.userID, on: db))
        }
        return CreationOptions(
            challenge: challenge, party: party, userHandle: handle, userName: caller.user.accountName,
            userDisplayName: caller.user.displayName ?? caller.user.accountName, excludedCredentials: excluded
        )
    }

    /// The attestation of a new passkey, from a request body whose `credential` member is
    /// a `RegistrationResponseJSON`; `name` as the owner gave it, if they did.
    public func register(_ caller: Authenticated, body: [UInt8], name rawName: String?, from address: String) async throws -> Passkey {
        let name = try rawName.map(PasskeyName.validated) ?? PasskeyName.unnamed
        let (form, clientData) = try Self.read(body)
        let events = events
        // The attestation is checked before the write, as a sign-in's signature is: it needs
        // nothing stored, and the writer commits every write in turn.
        let verdict: Result<WebAuthnCeremony.NewCredential, WebAuthnFailure>
        do throws(WebAuthnFailure) {
            verdict = .success(try WebAuthnCeremony.register(attestationObject: try form.member("attestationObject"), clientData: clientData, for: party))
        } catch {
            verdict = .failure(error)
        }
        let outcome = try await database.write { db -> Result<(Passkey, EndedAccess), PasskeyError> in
            let now = UnixTime.now()
            // The challenge is spent first, whatever the verdict.
            guard try WebAuthnChallengeStore.consumeRegistration(clientData.challenge, of: caller.userID, now: now, on: db) else {
                return .failure(.challengeInvalid)
            }
            let credential: WebAuthnCeremony.NewCredential
            switch verdict {
            case .success(let checked): credential = checked
            case .failure(let failure): return .failure(.invalid(failure))
            }
            // The id the JSON names is the one the authenticator attested, or the form lies.
            guard credential.id == form.credentialID else { return .failure(.invalid(.malformed)) }
            guard try !PasskeyStore.exists(credential.id, on: db) else { return .failure(.exists) }
            try PasskeyStore.insert(credential, userID: caller.userID, name: name, now: now, on: db)
            let ended = try events.record(.signInMethodChanged(.passkeyAdded(name: name)), userID: caller.userID, address: address, now: now, on: db)
            let passkey = Passkey(credentialID: credential.id, name: name, createdAt: now, lastUsedAt: nil, backedUp: credential.backedUp)
            return .success((passkey, ended))
        }
        let (passkey, ended) = try outcome.get()
        mailQueued()
        await events.published(ended)
        return passkey
    }

    public func list(of caller: Authenticated, reader: StoreReader) throws -> [Passkey] {
        try reader.read { db in try PasskeyStore.passkeys(of: caller.userID, on: db) }
    }

    /// `id` is the credential id, base64url.
    public func rename(_ caller: Authenticated, id: String, to rawName: String) async throws -> Passkey {
        let name = try PasskeyName.validated(rawName)
        guard let credentialID = Self.credentialID(id) else { throw PasskeyError.notFound }
        let renamed = try await database.write { db -> Passkey? in
            guard try PasskeyStore.rename(credentialID, of: caller.userID, to: name, on: db) else { return nil }
            return try PasskeyStore.passkey(credentialID, of: caller.userID, on: db)
        }
        guard let renamed else { throw PasskeyError.notFound }
        return renamed
    }

    /// Needs what deleting the account needs (`AccountService.confirmOwner`: the password,
    /// or for an account without one a recent sign-in); refused when nothing else would sign
    /// the account in: no password, no other passkey and no provider identity.
    public func delete(_ caller: Authenticated, id: String, password: String?, from address: String) async throws {
        try await accounts.confirmOwner(caller, password: password, from: address)
        guard let credentialID = Self.credentialID(id) else { throw PasskeyError.notFound }
        let events = events
        let ended = try await database.write { db -> Result<EndedAccess, PasskeyError> in
            guard let passkey = try PasskeyStore.passkey(credentialID, of: caller.userID, on: db) else { return .failure(.notFound) }
            let ways = try IdentityStore.waysIn(of: caller.userID, on: db)
            guard ways.password || ways.passkeys > 1 || ways.identities > 0 else { return .failure(.lastSignInMethod) }
            try PasskeyStore.delete(credentialID, of: caller.userID, on: db)
            return .success(try events.record(
                .signInMethodChanged(.passkeyRemoved(name: passkey.name)), userID: caller.userID, address: address, now: UnixTime.now(), on: db))
        }.get()
        mailQueued()
        await events.published(ended)
    }

    /// A path's credential id; nil for one that could never be stored.
    static func credentialID(_ id: String) -> [UInt8]? {
        guard let bytes = Base64URL.decode(id), !bytes.isEmpty, bytes.count <= AuthenticatorData.maxCredentialIDLength else { return nil }
        return bytes
    }

    /// The JSON form and its client data: nothing of either is trusted yet, but the client
    /// data names the challenge to spend.
    static func read(_ body: [UInt8]) throws(PasskeyError) -> (WebAuthnResponseJSON, ClientData) {
        do throws(WebAuthnFailure) {
            let form = try WebAuthnResponseJSON(body: body)
            return (form, try ClientData(try form.member("clientDataJSON")))
        } catch {
            throw .invalid(error)
        }
    }
}
