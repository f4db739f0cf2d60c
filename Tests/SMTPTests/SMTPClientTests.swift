import SMTP
import Testing

/// The conversation on the wire, against a scripted server.
@Suite struct SMTPClientTests {
    static let greeting: [ScriptedServer.Step] = [.say("220 scripted ESMTP"), .hear]

    static func client(_ server: ScriptedServer, credentials: String = "", stepTimeout: Double = 5) throws -> SMTPClient {
        var settings = SMTPClient.Settings(
            endpoint: try SMTPEndpoint(url: "smtp://\(credentials)127.0.0.1:\(server.port)"), requireTLS: false, heloName: "client.example"
        )
        settings.stepTimeout = stepTimeout
        return try SMTPClient(settings: settings)
    }

    static func delivery(_ reply: String = "250 queued") -> [ScriptedServer.Step] {
        [.hear, .say("250 sender ok"), .hear, .say("250 recipient ok"), .hear, .say("354 go ahead"), .data, .say(reply)]
    }

    @Test func authLoginThenOneDotStuffedMessageThenQuit() throws {
        let server = try ScriptedServer(connections: [
            Self.greeting + [.say("250-scripted"), .say("250-AUTH LOGIN"), .say("250 8BITMIME")]
                + [.hear, .say("334 VXNlcm5hbWU6"), .hear, .say("334 UGFzc3dvcmQ6"), .hear, .say("235 ok")]
                + Self.delivery() + [.hear, .say("221 bye")],
        ])
        let client = try Self.client(server, credentials: "user:s%40cret@")
        try client.send(from: "no-reply@example.com", to: "ada@example.com", message: Array("Subject: hi\r\n\r\n.hidden\r\nline".utf8))
        client.finishBatch()
        #expect(server.transcript == [
            "EHLO client.example", "AUTH LOGIN", "dXNlcg==", "c0BjcmV0",
            "MAIL FROM:<no-reply@example.com>", "RCPT TO:<ada@example.com>", "DATA",
            "Subject: hi\r\n\r\n..hidden\r\nline", "QUIT",
        ])
    }

    @Test func aConnectionTheServerDroppedWhileIdleIsReplacedOnce() throws {
        let server = try ScriptedServer(connections: [
            Self.greeting + [.say("250 scripted")] + Self.delivery() + [.close],
            Self.greeting + [.say("250 scripted")] + Self.delivery(),
        ])
        let client = try Self.client(server)
        try client.send(from: "a@example.com", to: "one@example.com", message: Array("first".utf8))
        try client.send(from: "a@example.com", to: "two@example.com", message: Array("second".utf8))
        let transcript = server.transcript
        #expect(transcript.filter { $0 == "EHLO client.example" }.count == 2)
        #expect(transcript.contains("RCPT TO:<two@example.com>"))
        #expect(transcript.last == "second")
    }

    @Test func aRefusedRecipientIsAPermanentFailure() throws {
        let server = try ScriptedServer(connections: [
            Self.greeting + [.say("250 scripted"), .hear, .say("250 ok"), .hear, .say("550 5.1.1 no such user")],
        ])
        let client = try Self.client(server)
        let error = #expect(throws: SMTPError.self) {
            try client.send(from: "a@example.com", to: "nobody@example.com", message: Array("x".utf8))
        }
        #expect(error == .rejected(step: "RCPT TO", code: 550, text: "5.1.1 no such user"))
        #expect(error?.isPermanent == true)
    }

    @Test func aSilentServerTimesOut() throws {
        let server = try ScriptedServer(connections: [[.stall(seconds: 3)]])
        let client = try Self.client(server, stepTimeout: 0.3)
        #expect(throws: SMTPError.timedOut("the greeting")) {
            try client.send(from: "a@example.com", to: "b@example.com", message: Array("x".utf8))
        }
    }

    @Test func anAddressThatCouldSmuggleACommandIsRefusedBeforeConnecting() throws {
        let server = try ScriptedServer(connections: [])
        let client = try Self.client(server)
        #expect(throws: SMTPError.badAddress("'b@example.com>\r\nRCPT TO:<evil@example.com' is not a bare mail address")) {
            try client.send(from: "a@example.com", to: "b@example.com>\r\nRCPT TO:<evil@example.com", message: Array("x".utf8))
        }
    }
}
