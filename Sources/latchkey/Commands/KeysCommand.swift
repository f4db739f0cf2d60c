import AuthCrypto
import ArgumentParser
import FoundationEssentials
import Glibc
import LatchkeyAPI
import LatchkeyCore
import Logging

/// `latchkey keys list [--json] | keys rotate | keys retire KID`: the data directory's
/// signing keyring, which a running server reads again within seconds of a change.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "List, rotate or retire the keys access tokens are signed with.",
        subcommands: [List.self, Rotate.self, Retire.self]
    )

    /// With `signingKeys` configured the HMAC keys live in that setting, not in the data
    /// directory; the P-256 keys of `accessTokenAlgorithm` ES256 always live there.
    static func keyFileDirectory(_ settings: Settings) throws -> String {
        guard settings.signingKeys == nil || settings.accessTokenAlgorithm == .es256 else {
            throw CommandFailure.usage(
                "the keys come from the signingKeys setting: rotate them there (a new kid:key first, the old one kept until its tokens expire, then removed)"
            )
        }
        return settings.dataDir
    }

    struct List: SettingsCommand {
        static let configuration = CommandConfiguration(abstract: "The keys that verify tokens; the signing key first.")
        static var logLevel: Logger.Level? { .warning }
        @OptionGroup var format: OutputFormat

        func run(settings: Settings, logger: Logger) throws {
            let directory = try keyFileDirectory(settings)
            let path = directory + "/" + SigningKeyFile.fileName
            guard access(path, F_OK) == 0 else { throw CommandFailure.notFound("no signing key file at \(path) (check --data-dir)") }
            // A retired key's public half, still published, verifies nothing: not listed.
            let entries = try SigningKeyFile.read(path).filter { !$0.isRetired }
            let signing = SigningKeyFile.signingEntry(of: entries, algorithm: settings.accessTokenAlgorithm)?.id
            let rows = entries.map { KeyRow(entry: $0, signing: $0.id == signing) }
            print(format.json ? try AdminCommands.json(rows) : TextTable.keys(rows))
        }
    }

    struct Rotate: SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put a new key of accessTokenAlgorithm in front: it signs from now on; tokens of the others stay valid until they expire."
        )
        static var logLevel: Logger.Level? { .warning }

        func run(settings: Settings, logger: Logger) throws {
            let directory = try keyFileDirectory(settings)
            let algorithm = settings.accessTokenAlgorithm
            print(try AdminCommands.perform(settings) { admin in
                "signing with \(try await admin.rotateSigningKey(inDirectory: directory, algorithm: algorithm).id) (a running server picks it up within seconds)"
            })
        }
    }

    struct Retire: SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a key that no longer signs: tokens it signed stop working here (their clients refresh); an ES256 key stays in the JWKS until they expire."
        )
        static var logLevel: Logger.Level? { .warning }
        @Argument(help: "The key id, as keys list shows it.")
        var kid: String

        func run(settings: Settings, logger: Logger) throws {
            let directory = try keyFileDirectory(settings)
            let (kid, algorithm, lifetime) = (kid, settings.accessTokenAlgorithm, Int64(settings.accessTokenTTL))
            do {
                print(try AdminCommands.perform(settings) { admin in
                    try await admin.retireSigningKey(kid, inDirectory: directory, algorithm: algorithm, publishedFor: lifetime)
                    return "retired \(kid)"
                })
            } catch KeyringChangeError.unknownKey(let id) {
                throw CommandFailure.notFound("no signing key \(id)")
            } catch KeyringChangeError.signingKey(let id) {
                throw CommandFailure.usage("\(id) signs new tokens; rotate first (latchkey keys rotate), then retire it")
            }
        }
    }
}

/// `{kid, createdAt, signing}`; the table adds the algorithm.
struct KeyRow: Encodable {
    let kid: String
    let createdAt: String
    let signing: Bool
    let algorithm: AccessTokenAlgorithm

    init(entry: SigningKeyFile.Entry, signing: Bool) {
        kid = entry.id
        createdAt = RFC3339.format(entry.createdAt)
        self.signing = signing
        algorithm = entry.algorithm
    }

    private enum CodingKeys: String, CodingKey { case kid, createdAt, signing }
}

extension TextTable {
    static func keys(_ rows: [KeyRow]) -> String {
        render(["KID", "CREATED", "SIGNING", "ALGORITHM"], rows.map { row in
            [row.kid, row.createdAt, row.signing ? "yes" : "no", row.algorithm.rawValue]
        })
    }
}
