import Foundation
import Testing
import TestSupport

/// The Apple key settings are checked at start: a server that could not sign Apple's client
/// secret must not start and fail later, at the first deletion; and whatever is wrong with
/// the key file, the line that says so shows none of its bytes.
@Suite struct AppleSettingsTests {
    func refusedStart(_ arguments: [String]) throws -> String {
        let server = try LatchkeyProcess(arguments: ["serve", "--port", "0"] + arguments)
        #expect(server.waitForExit() == 1, "\(server.output)")
        return server.output
    }

    @Test func theThreeSettingsGoTogether() throws {
        let output = try refusedStart(["--apple-team-id", FakeAppleEndpoints.teamID])
        #expect(output.contains("appleTeamID, appleKeyID and appleKeyFile go together"), "\(output)")
    }

    @Test func aMissingKeyFileIsNamed() throws {
        let output = try refusedStart([
            "--apple-team-id", FakeAppleEndpoints.teamID, "--apple-key-id", FakeAppleEndpoints.keyID, "--apple-key-file", "/nonexistent/AuthKey.p8",
        ])
        #expect(output.contains("cannot read the Apple key file /nonexistent/AuthKey.p8 (appleKeyFile)"), "\(output)")
    }

    /// An operator points appleKeyFile at the wrong key (a P-384 one): the server refuses
    /// it, says why, and prints no line of the key.
    @Test func aKeyNotOnP256IsRefusedWithoutShowingIt() throws {
        let path = LatchkeyProcess.makeTemporaryDirectory() + "/AuthKey.p8"
        let tool = Process()
        tool.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        tool.arguments = ["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384", "-out", path]
        try tool.run()
        tool.waitUntilExit()
        let output = try refusedStart([
            "--apple-team-id", FakeAppleEndpoints.teamID, "--apple-key-id", FakeAppleEndpoints.keyID, "--apple-key-file", path,
        ])
        #expect(output.contains("is not the .p8 from Apple's developer site: its key is not on P-256"), "\(output)")
        let keyLines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("-----") }
        #expect(!keyLines.isEmpty)
        for line in keyLines { #expect(!output.contains(line.prefix(24)), "a line of the key in the output") }
    }

    @Test(arguments: [["--apple-team-id", "team"], ["--apple-key-id", "KEY-123456"], ["--apple-base-url", "http://appleid.apple.com"]])
    func aMalformedValueIsRefused(_ arguments: [String]) throws {
        let server = try LatchkeyProcess(arguments: ["serve", "--port", "0"] + arguments)
        #expect(server.waitForExit() == 2, "\(server.output)")
        #expect(server.output.contains(String(arguments[0].dropFirst(2))), "\(server.output)")
    }
}
