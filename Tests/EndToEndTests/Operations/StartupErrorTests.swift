import Foundation
import Glibc
import Testing
import TestSupport

/// Start-up failures end with one clear line and a non-zero exit, never a stack trace.
@Suite struct StartupErrorTests {
    private func failedStart(_ arguments: [String], environment: [String: String] = [:], dataDirectory: String? = nil) throws -> (status: Int32?, output: String) {
        let process = try LatchkeyProcess(arguments: arguments, environment: environment, dataDirectory: dataDirectory)
        let status = process.waitForExit()
        return (status, process.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test func badFlagValueIsOneLineAndExitCode2() throws {
        let result = try failedStart(["serve", "--port", "eighty"])
        #expect(result.status == 2)
        #expect(result.output == "latchkey: invalid value 'eighty' for --port: expected a whole number from 0 to 65535")
    }

    @Test func badEnvironmentValueNamesTheVariable() throws {
        let result = try failedStart(["serve"], environment: ["LATCHKEY_EVENT_LOOPS": "0"])
        #expect(result.status == 2)
        #expect(result.output == "latchkey: invalid value '0' for LATCHKEY_EVENT_LOOPS: expected a whole number from 1 to 256")
    }

    @Test func badSMTPSettingsSayWhatIsWrongWithoutThePassword() throws {
        let url = try failedStart(["serve"], environment: ["LATCHKEY_SMTP_URL": "smtp://mailer:hunter2@mail.example.com:99999"])
        #expect(url.status == 2)
        #expect(url.output == "latchkey: invalid value for LATCHKEY_SMTP_URL: expected an smtp:// or smtps:// URL (its port must be a number from 1 to 65535)")
        let flag = try failedStart(["serve", "--smtp-require-tls", "maybe"])
        #expect(flag.output == "latchkey: invalid value 'maybe' for --smtp-require-tls: expected true or false")
        let caFile = try failedStart(["serve", "--port", "0", "--smtp-url", "smtp://localhost:2525", "--smtp-ca-file", "/nonexistent/ca.pem"],
                                     environment: ["LATCHKEY_SMTP_CA_FILE": "ignored: the flag wins"])
        #expect(caFile.status == 1)
        #expect(caFile.output.contains("latchkey: TLS failed: cannot read the CA file /nonexistent/ca.pem"))
    }

    /// An origin with a path or in capitals would never equal what a browser sends.
    @Test(arguments: ["https://app.example.com/", "https://App.example.com", "app.example.com", "ftp://app.example.com"])
    func aCORSOriginThatCanNeverMatchIsRefused(_ origin: String) throws {
        let result = try failedStart(["serve", "--cors-origins", "http://localhost:3000,\(origin)"])
        #expect(result.status == 2)
        #expect(result.output == "latchkey: invalid value 'http://localhost:3000,\(origin)' for --cors-origins: expected * or origins such as https://app.example.com (scheme, host and port only), separated by commas")
    }

    @Test func unknownOptionIsRefused() throws {
        let result = try failedStart(["serve", "--prot", "80"])
        #expect(result.status == 2)
        #expect(result.output.hasPrefix("latchkey: Unknown option '--prot'\nUsage: latchkey serve"))
    }

    @Test func unknownConfigFileKeyIsRefused() throws {
        let path = LatchkeyProcess.makeTemporaryDirectory() + "/latchkey.json"
        try #"{"prot": 80}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try failedStart(["serve", "--config", path])
        #expect(result.status == 2)
        #expect(result.output == "latchkey: unknown setting 'prot' in \(path)")
    }

    @Test func shortSigningKeyIsRefusedWithoutEchoingIt() throws {
        let key = Data("too-short-secret".utf8).base64EncodedString()
        let result = try failedStart(["serve"], environment: ["LATCHKEY_SIGNING_KEYS": "k1:\(key)"])
        #expect(result.status == 2)
        #expect(result.output.contains("LATCHKEY_SIGNING_KEYS"))
        #expect(!result.output.contains(key))
    }

    @Test func portInUseIsReported() throws {
        let holder = try LatchkeyProcess()
        defer { holder.terminate() }
        let port = try holder.waitUntilListening()
        let result = try failedStart(["serve", "--port", "\(port)"])
        #expect(result.status == 1)
        #expect(result.output == "latchkey: port \(port) on 127.0.0.1 is already in use")
    }

    @Test func unwritableDataDirectoryIsReported() throws {
        let file = LatchkeyProcess.makeTemporaryDirectory() + "/not-a-directory"
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try failedStart(["serve", "--port", "0"], dataDirectory: file + "/data")
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("latchkey: cannot create data directory \(file)/data:"))
        #expect(!result.output.contains("\n"))
    }

    @Test func editedAppliedMigrationStopsStartUp() throws {
        let dataDirectory = LatchkeyProcess.makeTemporaryDirectory() + "/data"
        let first = try LatchkeyProcess(arguments: ["migrate"], dataDirectory: dataDirectory)
        #expect(first.waitForExit() == 0)
        try StoredRows(dataDirectory: dataDirectory, writable: true)
            .run("UPDATE schema_migrations SET checksum = '0000000000000000' WHERE version = 1")

        let result = try failedStart(["serve", "--port", "0"], dataDirectory: dataDirectory)
        #expect(result.status == 1)
        #expect(result.output.hasPrefix("latchkey: migration 0001_initial"))
        #expect(!result.output.contains("\n"))
    }
}
