import ArgumentParser
import AuthCrypto
import LatchkeyCore
import Logging

/// `latchkey import firebase --users FILE --hash-key B64 --salt-separator B64 --rounds N
/// --mem-cost N [--firestore FILE] [--rtdb FILE] [--json]`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import", abstract: "Import accounts from another system.", subcommands: [Firebase.self]
    )

    struct Firebase: SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Import a Firebase project's accounts, beside a running server; run again to refresh them.",
            discussion: """
                The hash parameters are the project's: Firebase console, Authentication, Users, the ⋮ menu \
                above the table, Password hash parameters. Accounts keep their uid; their passwords are \
                checked against Firebase's hash at their first login and stored as PBKDF2 then.
                """
        )
        static var logLevel: Logger.Level? { .warning }

        @Option(help: ArgumentHelp("The Auth export (firebase auth:export FILE --format=json).", valueName: "file"))
        var users: String
        @Option(help: ArgumentHelp("base64_signer_key of the password hash parameters.", valueName: "b64"))
        var hashKey: String
        @Option(help: ArgumentHelp("base64_salt_separator of the password hash parameters.", valueName: "b64"))
        var saltSeparator: String
        @Option(help: ArgumentHelp("rounds of the password hash parameters (1 to 8).", valueName: "n"))
        var rounds: Int
        @Option(help: ArgumentHelp("mem_cost of the password hash parameters (1 to 14).", valueName: "n"))
        var memCost: Int
        @Option(help: ArgumentHelp("A Firestore export as JSON: users/{uid} give displayName and photoURL, displayNames/{name} their owners.", valueName: "file"))
        var firestore: String?
        @Option(help: ArgumentHelp("A Realtime Database export (firebase database:get /): userPresence/{uid} gives presence.", valueName: "file"))
        var rtdb: String?
        @OptionGroup var format: OutputFormat

        func validate() throws {
            _ = try parameters()
        }

        /// The project's parameters, or a usage error that names the flag (never its value:
        /// the signer key is a secret).
        func parameters() throws -> FirebaseScryptParameters {
            guard let signerKey = Base64Padded.decode(hashKey), !signerKey.isEmpty else {
                throw ValidationError("--hash-key must be the base64_signer_key of the project's password hash parameters (base64)")
            }
            guard let saltSeparator = Base64Padded.decode(saltSeparator) else {
                throw ValidationError("--salt-separator must be the base64_salt_separator of the project's password hash parameters (base64)")
            }
            let rounds = FirebaseScryptParameters.roundsRange, memoryCosts = FirebaseScryptParameters.memoryCostRange
            guard rounds.contains(self.rounds) else {
                throw ValidationError("--rounds must be \(rounds.lowerBound) to \(rounds.upperBound), as the project's password hash parameters say")
            }
            guard memoryCosts.contains(memCost) else {
                throw ValidationError("--mem-cost must be \(memoryCosts.lowerBound) to \(memoryCosts.upperBound), as the project's password hash parameters say")
            }
            guard let parameters = FirebaseScryptParameters(signerKey: signerKey, saltSeparator: saltSeparator, rounds: self.rounds, memoryCost: memCost) else {
                throw ValidationError("--hash-key and --salt-separator must be at most 1024 bytes each")
            }
            return parameters
        }

        func run(settings: Settings, logger: Logger) throws {
            let parameters = try parameters()
            let files = FirebaseImport.Files(users: users, firestore: firestore, realtimeDatabase: rtdb)
            let reserved = ReservedDisplayNames(settings.reservedDisplayNames)
            let json = format.json
            print(try AdminCommands.perform(settings) { admin in
                var progress = ImportProgress()
                let summary = try await FirebaseImport(administration: admin, parameters: parameters, reservedDisplayNames: reserved)
                    .run(files) { read, total in progress.report(read: read, of: total) }
                return json ? try AdminCommands.json(ImportSummaryRow(summary)) : TextTable.importSummary(summary)
            })
        }
    }
}

/// A line on stderr at most every second while a large export is written, and one at
/// its end: `latchkey: import: 42000 of 100000 accounts`.
struct ImportProgress {
    private var lastLine: ContinuousClock.Instant?

    mutating func report(read: Int, of total: Int) {
        let now = ContinuousClock.now
        // A file of one batch or less is done before anyone could read a line.
        guard total > 1_000, read == total || lastLine.map({ now - $0 >= .seconds(1) }) ?? true else { return }
        lastLine = now
        StandardError.write("latchkey: import: \(read) of \(total) accounts\n")
    }
}
