import AuthCrypto
import ClientSocket
import Foundation
import HTTPSClient
@testable import LatchkeyCore
import Testing
import TestSupport

/// Apple's token and revocation endpoints, against the fake Apple over HTTPS
/// (Tests/Tools/fake_apple_endpoints.py), which checks every client secret with PyJWT
/// against the public half of the test's `.p8`, as Apple checks it.
@Suite(.serialized) struct AppleTokenEndpointTests {
    let apple: FakeAppleEndpoints
    let clientID = FakeAppleEndpoints.clientIDs[0]

    init() throws {
        apple = try FakeAppleEndpoints()
    }

    func endpoint(keyPath: String? = nil, keyID: String = FakeAppleEndpoints.keyID, limits: HTTPSClient.Limits = .init()) throws -> AppleTokenEndpoint {
        let key = try AppleServerKey.load(path: keyPath ?? apple.keyPath)
        let client = HTTPSClient(context: try TLSContext(caFile: apple.certificate.certificatePath), limits: limits)
        let secrets = AppleClientSecrets(teamID: FakeAppleEndpoints.teamID, keyID: keyID, key: key, audience: apple.baseURL)
        return AppleTokenEndpoint(client: client, baseURL: apple.baseURL, secrets: secrets)
    }

    @Test func aCodeIsExchangedForAppleRefreshToken() throws {
        let token = try endpoint().exchange(code: "c.first", clientID: clientID)
        #expect(token.refreshToken == "rt.c.first")
        #expect(token.subject == "c.first", "the sub of the id_token Apple answered with")
        let exchanges = apple.records("exchange")
        #expect(exchanges.count == 1)
        #expect(exchanges.first?["client_id"] == clientID)
        #expect(apple.records("refused").isEmpty, "the client secret checked out: \(apple.records("refused"))")
    }

    @Test func aRevocationNamesTheTokenAndItsKind() throws {
        try endpoint().revoke(refreshToken: "rt.some", clientID: FakeAppleEndpoints.clientIDs[1])
        let revocations = apple.records("revoke")
        #expect(revocations.count == 1)
        #expect(revocations.first?["token"] == "rt.some")
        #expect(revocations.first?["token_type_hint"] == "refresh_token")
        #expect(revocations.first?["client_id"] == FakeAppleEndpoints.clientIDs[1])
    }

    /// A client secret signed with another key, or naming another key id, is refused by
    /// Apple: the error says so with Apple's code, and nothing was exchanged.
    @Test func aSecretAppleCannotVerifyIsRefusedWithItsCode() throws {
        let otherKey = LatchkeyProcess.makeTemporaryDirectory() + "/other.p8"
        try FakeAppleEndpoints.generateKey(at: otherKey)
        #expect(throws: AppleTokenError.rejected(status: 400, error: "invalid_client")) {
            try endpoint(keyPath: otherKey).exchange(code: "c.other-key", clientID: clientID)
        }
        #expect(throws: AppleTokenError.rejected(status: 400, error: "invalid_client")) {
            try endpoint(keyID: "OTHERKEY00").revoke(refreshToken: "rt.x", clientID: clientID)
        }
        #expect(apple.records("refused").count == 2)
        #expect(apple.records("exchange").isEmpty && apple.records("revoke").isEmpty)
    }

    @Test func aSpentCodeIsInvalidGrant() throws {
        _ = try endpoint().exchange(code: "c.once", clientID: clientID)
        #expect(throws: AppleTokenError.rejected(status: 400, error: "invalid_grant")) {
            try endpoint().exchange(code: "c.once", clientID: clientID)
        }
    }

    /// What Apple (or whoever answers in its place) puts in `error` reaches the log only
    /// when it is a plain OAuth code.
    @Test func anErrorThatIsNoCodeIsReportedAsUnrecognised() throws {
        #expect(throws: AppleTokenError.rejected(status: 400, error: "unrecognised")) {
            try endpoint().exchange(code: "odd-error", clientID: clientID)
        }
    }

    @Test func anAnswerWithoutARefreshTokenIsMalformed() throws {
        #expect(throws: AppleTokenError.malformedAnswer("no refresh_token")) {
            try endpoint().exchange(code: "no-token", clientID: clientID)
        }
    }

    @Test(arguments: ["", "a code", "c\r\nX-Injected: 1", String(repeating: "c", count: 1025)])
    func aMalformedCodeIsNeverSent(_ code: String) throws {
        #expect(throws: AppleTokenError.malformedCode) { try endpoint().exchange(code: code, clientID: clientID) }
        #expect(apple.records().isEmpty)
    }

    @Test func appleDownIsUnreachable() throws {
        apple.stop()
        let error = #expect(throws: AppleTokenError.self) { try endpoint().revoke(refreshToken: "rt.x", clientID: clientID) }
        guard case .unreachable(.socket(.connect))? = error else {
            Issue.record("not refused for the connection: \(String(describing: error))")
            return
        }
    }

    @Test func aSlowAppleMeetsTheDeadline() throws {
        var limits = HTTPSClient.Limits()
        limits.totalTimeout = 1
        let started = Date()
        #expect(throws: AppleTokenError.unreachable(.socket(.timedOut("the answer's head")))) {
            try endpoint(limits: limits).exchange(code: "slow", clientID: clientID)
        }
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
