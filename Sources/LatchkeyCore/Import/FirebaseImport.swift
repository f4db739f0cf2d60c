import AuthCrypto
import JSONStream

/// `latchkey import firebase`: the accounts of a Firebase Auth export, with display names
/// and pictures from a Firestore export and presence from a Realtime Database export,
/// written beside a running server through this process's database writer.
///
/// Accounts keep their Firebase uid, email, verification, disabled flag and creation
/// time; their scrypt hashes are verified at their first login and replaced by PBKDF2
/// then (`StoredPassword`). The project's hash parameters are stored once.
///
/// The Auth export is read twice, in pieces: once to check all of it (a malformed file
/// changes nothing, and the count makes progress meaningful), then to write it, one
/// transaction per batch. Running it again duplicates nothing: an account it imported and
/// nobody has used since is refreshed (`updated`), one used since is left alone.
public struct FirebaseImport: Sendable {
    public struct Files: Sendable {
        public var users: String
        public var firestore: String?
        public var realtimeDatabase: String?

        public init(users: String, firestore: String?, realtimeDatabase: String?) {
            self.users = users
            self.firestore = firestore
            self.realtimeDatabase = realtimeDatabase
        }
    }

    let database: Database
    let parameters: FirebaseScryptParameters
    let reservedDisplayNames: ReservedDisplayNames
    let batchSize: Int

    public init(
        administration: Administration, parameters: FirebaseScryptParameters, reservedDisplayNames: ReservedDisplayNames, batchSize: Int = 1_000
    ) {
        database = administration.database
        self.parameters = parameters
        self.reservedDisplayNames = reservedDisplayNames
        self.batchSize = max(1, batchSize)
    }

    /// `progress(read, total)` is called after each batch is committed, the last time with
    /// `read == total`.
    public func run(_ files: Files, progress: (_ read: Int, _ total: Int) -> Void) async throws -> ImportSummary {
        let staging = try ImportStaging()
        if let path = files.firestore { try FirestoreExport.stage(path, into: staging) }
        if let path = files.realtimeDatabase { try RealtimeDatabaseExport.stage(path, into: staging) }
        let total = try check(files.users)

        let parameters = parameters
        let parameterSet = try await database.write { db in try ImportedHashParametersStore.id(of: parameters, now: UnixTime.now(), on: db) }
        let export = try FirebaseAuthExport(path: files.users)
        var summary = ImportSummary()
        var read = 0
        var exhausted = false
        // A batch of accounts per pass, in one transaction; the file's length bounds the passes.
        while !exhausted {
            var batch: [(id: String, prepared: Prepared)] = []
            while batch.count < batchSize {
                guard let user = try export.next() else {
                    exhausted = true
                    break
                }
                batch.append((user.localID, try prepare(user, parameterSet: parameterSet, staging: staging)))
            }
            let accounts: [ImportedAccount] = batch.compactMap { entry in
                guard case .write(let account) = entry.prepared else { return nil }
                return account
            }
            var outcomes: [ImportOutcome] = []
            if !accounts.isEmpty {
                outcomes = try await database.write { db in
                    let now = UnixTime.now()
                    return try accounts.map { try ImportStore.write($0, now: now, on: db) }
                }
            }
            // The summary lists accounts in the file's order.
            var written = outcomes.makeIterator()
            for (id, prepared) in batch {
                switch prepared {
                case .write: if let outcome = written.next() { summary.record(outcome, of: id) }
                case .skip(let reason): summary.record(.skipped(reason), of: id)
                }
            }
            read += batch.count
            if !batch.isEmpty { progress(read, total) }
        }
        return summary
    }

    /// Reads the whole Auth export once, writing nothing: malformed input, or hashes that
    /// cannot be these parameters', stop the import before it begins. Returns the count.
    func check(_ path: String) throws -> Int {
        let export = try FirebaseAuthExport(path: path)
        var count = 0
        // One account per pass: bounded by the file.
        while let user = try export.next() {
            count += 1
            guard let hash = user.passwordHash, hash.count != parameters.signerKey.count else { continue }
            throw ImportError.malformed(
                path: path, line: user.location.line, column: user.location.column,
                message: "\(user.path).passwordHash is \(hash.count) bytes, but a hash made with this --hash-key is \(parameters.signerKey.count): are these the project's password hash parameters?"
            )
        }
        return count
    }

    enum Prepared {
        case write(ImportedAccount)
        case skip(ImportSkipReason)
    }

    /// The account to write, or why it is left out, from the Auth export's fields and what
    /// the other exports say of the same uid.
    func prepare(_ user: FirebaseUser, parameterSet: Int64, staging: ImportStaging) throws -> Prepared {
        guard UserID.isValid(user.localID) else { return .skip(.invalidID) }
        guard let rawEmail = user.email, !rawEmail.isEmpty else { return .skip(.missingEmail) }
        guard case .success(let email) = EmailRules.normalize(rawEmail) else { return .skip(.invalidEmail) }
        let profile = try staging.profile(of: user.localID)
        // Firestore's name wins over the Auth export's: it is what the app showed.
        let wanted = try profile?.displayName ?? staging.registeredName(of: user.localID) ?? user.displayName.flatMap { $0.isEmpty ? nil : $0 }
        let createdAt = user.createdAt ?? UnixTime.now()
        let passwordHash = user.passwordHash.map { hash in
            ImportedFirebaseHash(parameterSet: parameterSet, salt: user.salt ?? [], hash: hash).encoded
        } ?? StoredPassword.noPassword
        // A picture URL Latchkey's rules refuse (http, say) is left out, as a PATCH would refuse it.
        let photoURL = (profile?.photoURL ?? user.photoURL).flatMap { ProfileChange.isAcceptablePhotoURL($0) ? $0 : nil }
        return .write(ImportedAccount(
            id: user.localID, email: email, emailVerified: user.emailVerified, disabled: user.disabled, createdAt: createdAt,
            passwordHash: passwordHash, displayName: try displayName(wanted, of: user.localID, staging: staging), photoURL: photoURL,
            presence: try staging.presence(of: user.localID).map { ($0.status, $0.lastSeen ?? createdAt) }
        ))
    }

    /// The name to claim, unless the rules refuse it, it is reserved, or Firestore's
    /// `displayNames` collection gives it to another user (the app's owner of a name keeps
    /// it, wherever the two accounts stand in the file). Whether someone on Latchkey holds
    /// it already is decided in the write.
    func displayName(_ wanted: String?, of userID: String, staging: ImportStaging) throws -> ImportedAccount.DisplayName {
        guard let wanted else { return .none(.missing) }
        if let reason = DisplayNameRules.check(wanted).reason { return .none(.unavailable(.invalid(reason))) }
        if reservedDisplayNames.contains(wanted) { return .none(.unavailable(.reserved)) }
        if let owner = try staging.owner(ofName: wanted), owner != userID { return .none(.unavailable(.taken)) }
        return .claim(wanted)
    }
}

extension ImportSummary {
    mutating func record(_ outcome: ImportOutcome, of id: String) {
        switch outcome {
        case .imported(let nameless):
            imported += 1
            if let nameless { self.nameless.append(NamelessEntry(id: id, reason: nameless)) }
        case .updated(let nameless):
            updated += 1
            if let nameless { self.nameless.append(NamelessEntry(id: id, reason: nameless)) }
        case .skipped(let reason):
            skipped.append(Entry(id: id, reason: reason.rawValue))
        }
    }
}
