/// The second factor of a signed-in account (TOTP, RFC 6238): enrol, confirm with a first
/// code, remove, renew the recovery codes, and its status. Answering the challenge a
/// password login opens is `SecondFactorService+Challenge`.
///
/// Every password these routes ask for is checked as at login, and counts towards the
/// same guessing throttle (`AccountService.verifyPassword`).
public struct SecondFactorService: Sendable {
    let accounts: AccountService

    init(accounts: AccountService) {
        self.accounts = accounts
    }

    var database: Database { accounts.database }
    var events: AccountEvents { accounts.events }

    public func status(of caller: Authenticated, reader: StoreReader) throws -> SecondFactorStatus {
        try reader.read { db in
            guard let factor = try SecondFactorStore.factor(of: caller.userID, on: db), factor.live else {
                return SecondFactorStatus(enabled: false, enabledAt: nil, recoveryCodesLeft: 0)
            }
            return SecondFactorStatus(
                enabled: true, enabledAt: factor.enabledAt, recoveryCodesLeft: try SecondFactorStore.recoveryCodesLeft(of: caller.userID, on: db)
            )
        }
    }

    /// A new pending secret, replacing a pending one; refused while a factor is live. The
    /// factor does nothing until `confirm` sees a first correct code from it.
    public func enrol(_ caller: Authenticated, password: String, from address: String) async throws -> TOTPEnrolment {
        try await accounts.verifyPassword(password, of: caller, from: address)
        let totp = TOTP.generate()
        let sealed = totp.sealed(for: caller.userID, with: accounts.mail.outboxKey)
        try await database.write { db in
            if try SecondFactorStore.isLive(caller.userID, on: db) { throw SecondFactorError.alreadyEnabled }
            try SecondFactorStore.savePending(sealed, for: caller.userID, now: UnixTime.now(), on: db)
        }
        return TOTPEnrolment(
            secret: totp.base32Secret, otpauthURI: totp.otpauthURI(issuer: accounts.mail.productName, account: caller.user.accountName)
        )
    }

    /// The first correct code makes the pending factor live and yields the ten recovery
    /// codes, shown this once. The code's step counts as used.
    public func confirm(_ caller: Authenticated, code: [UInt8], from address: String) async throws -> RecoveryCodes {
        guard let factor = try database.read({ db in try SecondFactorStore.factor(of: caller.userID, on: db) }), !factor.live else {
            throw SecondFactorError.notPending
        }
        guard let totp = TOTP.opened(factor.sealedSecret, for: caller.userID, with: accounts.mail.outboxKey),
              case .accepted(let step) = totp.check(code, at: UnixTime.now(), lastAcceptedStep: factor.lastAcceptedStep)
        else { throw SecondFactorError.codeInvalid }
        let codes = RecoveryCodes.generate(for: caller.userID)
        let changed = try await database.write { [events] db in
            let now = UnixTime.now()
            guard try SecondFactorStore.makeLive(caller.userID, sealedSecret: factor.sealedSecret, step: step, now: now, on: db) else {
                // Confirmed by a racing request, or replaced by a new enrolment, meanwhile.
                throw try SecondFactorStore.isLive(caller.userID, on: db) ? SecondFactorError.notPending : SecondFactorError.codeInvalid
            }
            try SecondFactorStore.replaceRecoveryCodes(of: caller.userID, with: codes.hashes, now: now, on: db)
            return try events.record(.signInMethodChanged(.totpEnabled), userID: caller.userID, address: address, now: now, on: db)
        }
        accounts.mailQueued()
        await events.published(changed)
        return codes
    }

    /// The factor (pending or live) goes with its recovery codes and open challenges.
    public func remove(_ caller: Authenticated, password: String, from address: String) async throws {
        try await accounts.verifyPassword(password, of: caller, from: address)
        let changed = try await database.write { [events] db -> EndedAccess? in
            let now = UnixTime.now()
            guard let wasLive = try SecondFactorStore.remove(of: caller.userID, on: db) else { throw SecondFactorError.notFound }
            // A pending factor never signed anyone in: its removal is no news to mail.
            guard wasLive else { return nil }
            return try events.record(.signInMethodChanged(.totpRemoved), userID: caller.userID, address: address, now: now, on: db)
        }
        guard let changed else { return }
        accounts.mailQueued()
        await events.published(changed)
    }

    /// Ten new recovery codes for a live factor; the old ones are void.
    public func renewRecoveryCodes(_ caller: Authenticated, password: String, from address: String) async throws -> RecoveryCodes {
        try await accounts.verifyPassword(password, of: caller, from: address)
        let codes = RecoveryCodes.generate(for: caller.userID)
        let changed = try await database.write { [events] db in
            let now = UnixTime.now()
            guard try SecondFactorStore.isLive(caller.userID, on: db) else { throw SecondFactorError.notFound }
            try SecondFactorStore.replaceRecoveryCodes(of: caller.userID, with: codes.hashes, now: now, on: db)
            return try events.record(.signInMethodChanged(.recoveryCodesReplaced), userID: caller.userID, address: address, now: now, on: db)
        }
        accounts.mailQueued()
        await events.published(changed)
        return codes
    }
}
