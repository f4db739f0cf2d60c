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

    /// With `signingKeys` configured the keys live in that setting, not in the data directory.
    static func keyFileDirectory(_ settings: Settings) throws -> String {
        guard settings.signingKeys == nil else {
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
            let entries = try SigningKeyFile.read(path)
            print(format.json ? try AdminCommands.json(entries.enumerated().map { KeyRow(entry: $1, signing: $0 == 0) }) : TextTable.keys(entries))
        }
    }

    struct Rotate: SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Put a new key in front: it signs from now on; tokens of the others stay valid until they expire."
        )
        static var logLevel: Logger.Level? { .warning }

        func run(settings: Settings, logger: Logger) throws {
            let directory = try keyFileDirectory(settings)
            print(try AdminCommands.perform(settings) { admin in
                "signing with \(try await admin.rotateSigningKey(inDirectory: directory).key.id) (a running server picks it up within seconds)"
            })
        }
    }

    struct Retire: SettingsCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove a key that no longer signs: tokens it signed stop working (their clients refresh)."
        )
        static var logLevel: Logger.Level? { .warning }
        @Argument(help: "The key id, as keys list shows it.")
        var kid: String

        func run(settings: Settings, logger: Logger) throws {
            let directory = try keyFileDirectory(settings)
            let kid = kid
            do {
                print(try AdminCommands.perform(settings) { admin in
                    try await admin.retireSigningKey(kid, inDirectory: directory)
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

/// `{kid, createdAt, signing}`.
struct KeyRow: Encodable {
    let kid: String
    let createdAt: String
    let signing: Bool

    init(entry: SigningKeyFile.Entry, signing: Bool) {
        kid = entry.key.id
        createdAt = RFC3339.format(entry.createdAt)
        self.signing = signing
    }
}

extension TextTable {
    static func keys(_ entries: [SigningKeyFile.Entry]) -> String {
        render(["KID", "CREATED", "SIGNING"], entries.enumerated().map { index, entry in
            [entry.key.id, RFC3339.format(entry.createdAt), index == 0 ? "yes" : "no"]
        })
    }
}
