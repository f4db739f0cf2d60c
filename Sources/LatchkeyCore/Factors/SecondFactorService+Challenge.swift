import AuthCrypto

extension SignInMethods {
    /// A recovery code proves a second factor, but no one-time-password device (RFC 8176
    /// has no value for it): `mfa` without `otp`, so a backend asking for two factors gets
    /// them, and one asking how can tell the authenticator app from the printed codes.
    public static let passwordAndRecoveryCode = SignInMethods(values: ["pwd", "mfa"])
}

extension DeviceToken {
    /// The device a login's valid token named, kept with its challenge (checked then,
    /// and void with the challenge when the password changes).
    init(challengeDevice rawID: [UInt8]) {
        self.rawID = rawID
    }
}

extension SecondFactorService {
    /// Opens the challenge a correct password buys for an account with a live factor, in
    /// the login's write: wrong codes later count against `accountKey` and `device`, as the
    /// login's wrong passwords would.
    static func openChallenge(
        for userID: String, accountKey: String, passwordEpoch: Int64, device: DeviceToken?, now: Int64, on db: StoreConnection
    ) throws -> MFAChallenge {
        let (challenge, hash) = MFAChallenge.make()
        try MFAChallengeStore.insert(
            hash: hash, userID: userID, accountKey: accountKey, passwordEpoch: passwordEpoch, deviceID: device?.rawID, now: now,
            lifetime: MFAChallenge.lifetime, on: db
        )
        return challenge
    }

    /// What the code proved, to be spent in the write that signs in.
    private enum Proof: Sendable {
        case step(Int64)
        case recoveryCode(hash: [UInt8])

        var methods: SignInMethods {
            switch self {
            case .step: .passwordAndTOTP
            case .recoveryCode: .passwordAndRecoveryCode
            }
        }
    }

    private enum Outcome: Sendable {
        case wrongCode
        case signedIn(refreshToken: String, sessionID: String, methods: SignInMethods)
    }

    /// A correct code (or recovery code) turns the challenge into a TokenPair. A wrong one
    /// counts against the challenge (`MFAChallenge.maxWrongCodes`) and against the account
    /// as a wrong password does (`PasswordGuessThrottle`, the login's device honoured); a
    /// code of a step already accepted, or a recovery code spent, is a wrong code. Of two
    /// requests racing with one code, or with one challenge, at most one signs in: the
    /// step, the recovery code and the challenge are each spent by a conditional update in
    /// the one write that starts the session.
    public func answer(
        challenge token: String, with code: SecondFactorCode, from address: String, userAgent: String?
    ) async throws -> TokenPair {
        guard let hash = MFAChallenge.hash(of: token) else { throw MFAChallengeError.tokenInvalid }
        let found = try database.read { db -> (MFAChallengeStore.Row, User, Int64, SecondFactorStore.Factor, [[UInt8]])? in
            guard let row = try MFAChallengeStore.row(hash: hash, on: db), let user = try AccountStore.user(id: row.userID, on: db),
                  let factor = try SecondFactorStore.factor(of: user.id, on: db), factor.live
            else { return nil }
            let epoch = try AccountStore.passwordEpoch(userID: user.id, on: db)
            guard MFAChallenge.isOpen(row, now: UnixTime.now(), passwordEpoch: epoch) else { return nil }
            let hashes = if case .recoveryCode = code { try SecondFactorStore.recoveryCodeHashes(of: user.id, on: db) } else { [[UInt8]]() }
            return (row, user, epoch, factor, hashes)
        }
        guard let (row, user, epoch, factor, hashes) = found else { throw MFAChallengeError.tokenInvalid }
        let guesses = accounts.guesses
        let device = row.deviceID.map(DeviceToken.init(challengeDevice:))
        let attempt: PasswordGuessThrottle.Attempt
        do {
            attempt = try guesses.begin(accountKey: row.accountKey, address: address, device: device)
        } catch {
            AuditLog(database: database).record(.throttled, user: user.id, address: address, detail: "second factor guesses for one account")
            throw error
        }
        let proof: Proof? = switch code {
        case .totp(let submitted):
            if let totp = TOTP.opened(factor.sealedSecret, for: user.id, with: accounts.mail.outboxKey),
               case .accepted(let step) = totp.check(submitted, at: UnixTime.now(), lastAcceptedStep: factor.lastAcceptedStep) {
                .step(step)
            } else {
                nil
            }
        case .recoveryCode(let submitted):
            RecoveryCodes.match(submitted, for: user.id, among: hashes).map { .recoveryCode(hash: hashes[$0]) }
        }
        let outcome: Outcome
        do {
            outcome = try await database.write { [issuer = accounts.issuer] db in
                let now = UnixTime.now()
                let spent = switch proof {
                case .step(let step)?: try SecondFactorStore.accept(step: step, of: user.id, on: db)
                case .recoveryCode(let codeHash)?: try SecondFactorStore.spendRecoveryCode(codeHash, of: user.id, on: db)
                case nil: false
                }
                guard spent, let proof else {
                    try MFAChallengeStore.countWrongCode(hash: hash, on: db)
                    try AuditStore.append(.loginFailed, user: user.id, address: address, detail: "wrong second factor code", now: now, on: db)
                    return .wrongCode
                }
                // Thrown, these roll the spent step or code back with everything else.
                guard try MFAChallengeStore.use(hash: hash, now: now, maxWrongCodes: MFAChallenge.maxWrongCodes, on: db),
                      try AccountStore.passwordEpoch(userID: user.id, on: db) == row.passwordEpoch
                else { throw MFAChallengeError.tokenInvalid }
                guard let current = try AccountStore.user(id: user.id, on: db) else { throw MFAChallengeError.tokenInvalid }
                if current.disabled { throw AccountError.userDisabled }
                try AccountStore.setPresence("online", for: user.id, now: now, on: db)
                let (refresh, sessionID) = try AccountService.startSession(
                    for: user.id, by: proof.methods, userAgent: userAgent, now: now, issuer: issuer, on: db
                )
                let detail = if case .step = proof { "second factor: totp" } else { "second factor: recovery code" }
                try AuditStore.append(.login, user: user.id, address: address, session: sessionID, detail: detail, now: now, on: db)
                return .signedIn(refreshToken: refresh, sessionID: sessionID, methods: proof.methods)
            }
        } catch {
            guesses.abandon(attempt)
            throw error
        }
        switch outcome {
        case .wrongCode:
            try await guesses.finish(attempt, succeeded: false)
            throw MFAChallengeError.codeInvalid
        case .signedIn(let refresh, let sessionID, let methods):
            try await guesses.finish(attempt, succeeded: true)
            let pair = try accounts.issuer.pair(for: user, sessionID: sessionID, methods: methods, refreshToken: refresh, now: UnixTime.now())
            return accounts.issuer.withDeviceToken(pair, userID: user.id, epoch: epoch, device: device)
        }
    }
}
