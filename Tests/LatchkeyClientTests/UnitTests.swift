import Foundation
@testable import LatchkeyClient
import Testing

/// The pieces that need no server: the event-stream reader, back-off, token claims.
@Suite struct UnitTests {
    @Test func eventsArriveWholeHoweverTheBytesAreCut() {
        let stream = "event: presence\r\ndata: {\"a\":1}\r\n\r\n: keepalive\n\ndata: one\ndata: two\n\nevent: presence\rdata:x\r\r"
        let expected = [
            ServerSentEvent(event: "presence", data: #"{"a":1}"#),
            ServerSentEvent(event: "message", data: "one\ntwo"),
            ServerSentEvent(event: "presence", data: "x"),
        ]
        let bytes = Array(stream.utf8)
        // Whole, byte by byte (a CRLF split across pieces counts once), and in every two pieces.
        var whole = ServerSentEventParser()
        #expect(whole.feed(bytes) == expected)
        var single = ServerSentEventParser()
        #expect(bytes.flatMap { single.feed([$0]) } == expected)
        for cut in 0...bytes.count {
            var parser = ServerSentEventParser()
            #expect(parser.feed(bytes[..<cut]) + parser.feed(bytes[cut...]) == expected, "cut at \(cut)")
        }
    }

    @Test func anEventWithoutDataOrBlankLineIsNotDispatched() {
        var parser = ServerSentEventParser()
        #expect(parser.feed(Array("event: presence\n\n: comment only\n\ndata: late".utf8)).isEmpty)
        #expect(parser.feed(Array("\n\n".utf8)) == [ServerSentEvent(event: "message", data: "late")])
    }

    /// An account imported from Firebase whose name could not be claimed has none yet.
    @Test func aUserWithoutADisplayNameDecodes() throws {
        let json = #"{"id":"firebase-uid-1","email":"ada@example.com","emailVerified":true,"displayName":null,"photoURL":null,"createdAt":"2026-11-25T12:00:00Z"}"#
        let user = try JSONCoding.decoder().decode(User.self, from: Data(json.utf8))
        #expect(user.id == "firebase-uid-1" && user.displayName == nil)
        let profile = try JSONCoding.decoder().decode(PublicProfile.self, from: Data(#"{"id":"u","displayName":null,"photoURL":null}"#.utf8))
        #expect(profile.displayName == nil)
    }

    @Test func backoffGrowsToItsCeilingWithJitterTakenOff() {
        let backoff = Backoff(initial: 0.5, maximum: 4, multiplier: 2, jitter: 0.2)
        for (failures, full) in [(1, 0.5), (2, 1.0), (3, 2.0), (4, 4.0), (5, 4.0), (1000, 4.0)] {
            for _ in 0..<20 {
                let delay = backoff.delay(afterFailures: failures)
                #expect(delay <= full && delay >= full * 0.8, "\(failures) failures: \(delay)")
            }
        }
        #expect(Backoff(initial: 1, maximum: 0.1).maximum == 1, "the ceiling is never below the first pause")
    }

    @Test func theSessionIDIsReadFromTheAccessToken() {
        let payload = Data(#"{"sub":"u1","sid":"s-42","exp":1}"#.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        #expect(AccessTokenClaims.sessionID(of: "e30.\(payload).sig") == "s-42")
        #expect(AccessTokenClaims.sessionID(of: "not-a-jwt") == nil)
        #expect(AccessTokenClaims.sessionID(of: "e30.!!!.sig") == nil)
    }

    @Test func namesAndIdsArePercentEncodedWhole() {
        #expect(APIRequest.encoded("Ada.L") == "Ada%2EL")
        #expect(APIRequest.encoded("a/b?c d") == "a%2Fb%3Fc%20d")
        #expect(Latchkey.idList(["a,b", "c"]) == "a%2Cb,c")
    }
}
