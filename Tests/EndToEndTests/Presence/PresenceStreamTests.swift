import Foundation
import Testing
import TestSupport

/// A client of `GET /v1/presence/stream` over a raw socket: the head, then server-sent
/// events and comments one at a time, as a browser's EventSource reads them.
final class PresenceEventStream {
    enum Message: Equatable {
        case presence(userID: String, status: String, lastSeen: String)
        case comment(String)

        var lastSeen: String {
            if case .presence(_, _, let lastSeen) = self { lastSeen } else { "" }
        }
    }

    let connection: RawConnection
    let head: RawResponse
    private var text = ""

    init(_ server: AccountServer, token: String, watching userIDs: [String], timeout: Double = 5) throws {
        connection = try RawConnection(port: server.port, timeout: timeout)
        try connection.send("GET /v1/presence/stream?userIds=\(userIDs.joined(separator: ",")) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n")
        head = try connection.readResponse(isHead: true)
    }

    /// The next event or comment; nil when the server ended the stream (its last chunk).
    func next() throws -> Message? {
        for _ in 0..<1000 {
            if let end = text.range(of: "\n\n") {
                let block = String(text[..<end.lowerBound])
                text.removeSubrange(..<end.upperBound)
                return try Self.message(block)
            }
            guard let chunk = try connection.readChunk() else { return nil }
            text += String(decoding: chunk, as: UTF8.self)
        }
        throw TestError("no complete event in 1000 chunks")
    }

    /// The next `presence` event, skipping keep-alive comments; nil once `deadline` has
    /// passed (by default a minute from now: keep-alives come every 15 s, so counting
    /// messages alone would stretch a missing event's wait to many minutes). Each read
    /// returns within the connection's timeout, so the deadline bounds the loop.
    func nextPresence(before deadline: Date = Date().addingTimeInterval(60)) throws -> Message? {
        while true {
            guard let message = try next() else { return nil }
            if case .presence = message { return message }
            if Date() >= deadline { return nil }
        }
    }

    /// Whether `userID` is heard becoming `status` before `deadline`, past at most 5 other
    /// events (a stream's own "online" may still be on its way when the change is made).
    func hears(_ userID: String, become status: String, before deadline: Date) throws -> Bool {
        for _ in 0..<6 {
            guard let message = try nextPresence(before: deadline) else { return false }
            if message == .presence(userID: userID, status: status, lastSeen: message.lastSeen) { return true }
        }
        return false
    }

    /// True once the server has ended the stream: its last chunk comes, then the close.
    func ends() throws -> Bool {
        for _ in 0..<100 {
            guard try next() != nil else { return true }
        }
        return false
    }

    private static func message(_ block: String) throws -> Message {
        if block.hasPrefix(":") { return .comment(String(block.dropFirst()).trimmingCharacters(in: .whitespaces)) }
        let lines = block.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count == 2, lines[0] == "event: presence", lines[1].hasPrefix("data: "),
              let json = try JSONSerialization.jsonObject(with: Data(lines[1].dropFirst(6).utf8)) as? [String: Any],
              let userID = json["userId"] as? String, let status = json["status"] as? String, let lastSeen = json["lastSeen"] as? String
        else { throw TestError("not a presence event: \(block)") }
        return .presence(userID: userID, status: status, lastSeen: lastSeen)
    }
}

extension Accounts {
    /// The presence stream: its snapshot, change events and keep-alives; online while a
    /// stream is open and offline the moment the last one closes; streams bound to their
    /// session; and shutdown.
    @Suite struct PresenceStreams {
        static func status(_ server: AccountServer, of userID: String, token: String) throws -> String? {
            try server.call("GET", "/v1/presence/\(userID)", token: token)["status"] as? String
        }

        /// Polls (20 ms apart, at most `seconds`) until `userID` reads as `expected`.
        static func becomes(_ expected: String, _ server: AccountServer, _ userID: String, token: String, within seconds: Double = 1) throws -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            repeat {
                if try status(server, of: userID, token: token) == expected { return true }
                usleep(20_000)
            } while Date() < deadline
            return false
        }

        @Test func theStreamStartsWithASnapshotOfKnownIdsThenCarriesEachChange() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            let away = try server.call("PUT", "/v1/presence", json: ["status": "away"], token: bob.accessToken)

            let stream = try PresenceEventStream(server, token: ada.accessToken, watching: [bob.id, "nobody"])
            #expect(stream.head.status == 200)
            #expect(stream.head.header("content-type") == "text/event-stream; charset=utf-8")
            #expect(stream.head.header("cache-control") == "no-store")
            #expect(stream.head.header("transfer-encoding") == "chunked")
            #expect(try stream.next() == .presence(userID: bob.id, status: "away", lastSeen: away["lastSeen"] as! String), "the snapshot, unknown ids left out")

            let online = try server.call("PUT", "/v1/presence", json: ["status": "online"], token: bob.accessToken)
            #expect(try stream.nextPresence() == .presence(userID: bob.id, status: "online", lastSeen: online["lastSeen"] as! String))
            _ = try server.call("PUT", "/v1/presence", json: ["status": "away"], token: ada.accessToken)  // not watched
            _ = try server.call("PUT", "/v1/presence", json: ["status": "offline"], token: bob.accessToken)
            guard case .presence(let userID, let status, _)? = try stream.nextPresence() else { throw TestError("the stream ended") }
            #expect(userID == bob.id && status == "offline", "only the watched user's changes come")
        }

        @Test func aUserIsOnlineWhileAStreamIsOpenAndOfflineTheMomentTheLastOneCloses() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            _ = try server.call("PUT", "/v1/presence", json: ["status": "offline"], token: ada.accessToken)
            let watcher = try PresenceEventStream(server, token: bob.accessToken, watching: [ada.id])
            guard case .presence(_, "offline", _)? = try watcher.next() else { throw TestError("no offline snapshot") }

            var phone: PresenceEventStream? = try PresenceEventStream(server, token: ada.accessToken, watching: [bob.id])
            guard case .presence(ada.id, "online", _)? = try watcher.nextPresence() else { throw TestError("ada did not come online") }
            #expect(try Self.status(server, of: ada.id, token: bob.accessToken) == "online")
            var laptop: PresenceEventStream? = try PresenceEventStream(server, token: ada.accessToken, watching: [bob.id])
            #expect(laptop?.head.status == 200)

            phone = nil  // the app was killed: its socket closes
            usleep(200_000)
            #expect(try Self.status(server, of: ada.id, token: bob.accessToken) == "online", "the laptop still holds her online")

            let closedAt = Date()
            laptop = nil
            guard case .presence(ada.id, "offline", let lastSeen)? = try watcher.nextPresence() else { throw TestError("no offline event") }
            #expect(Date().timeIntervalSince(closedAt) < 1, "offline at once, not after a timeout")
            let seen = try #require(ISO8601DateFormatter().date(from: lastSeen))
            #expect(seen.timeIntervalSince(closedAt) > -1.5, "lastSeen is the moment the last stream closed")
            #expect(try Self.status(server, of: ada.id, token: bob.accessToken) == "offline")
            _ = (phone, laptop)
        }

        @Test func anOpenStreamHoldsItsUserPastThePresenceTimeout() throws {
            let server = try AccountServer(["--presence-timeout", "1"])
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            let stream = try PresenceEventStream(server, token: ada.accessToken, watching: [bob.id])
            usleep(2_300_000)
            #expect(try Self.status(server, of: ada.id, token: bob.accessToken) == "online", "held by the stream")
            #expect(try Self.status(server, of: bob.id, token: ada.accessToken) == "offline", "bob holds none: timed out")
            _ = stream
        }

        /// Each way a session ends closes that session's streams; the user stays online
        /// while another session holds one, and goes offline at once when none does.
        @Test(arguments: ["logout", "revocation", "password change", "logout everywhere", "password reset"])
        func endingASessionEndsItsStreams(_ ending: String) throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn("ada@example.com")
            let bob = try server.signUp("bob@example.com", "bob")
            let adaStream = try PresenceEventStream(server, token: ada.accessToken, watching: [bob.id])
            let phoneStream = try PresenceEventStream(server, token: phone.accessToken, watching: [bob.id])

            switch ending {
            case "logout":
                #expect(try server.call("POST", "/v1/auth/logout", token: phone.accessToken).status == 204)
                #expect(try phoneStream.ends())
                #expect(try Self.status(server, of: ada.id, token: bob.accessToken) == "online", "her other session holds her online")
                #expect(try server.call("POST", "/v1/auth/logout", token: ada.accessToken).status == 204)
                #expect(try adaStream.ends())
            case "revocation":
                let (phoneSession, adaSession) = (try #require(phone.sessionID), try #require(ada.sessionID))
                #expect(try server.call("DELETE", "/v1/auth/sessions/\(phoneSession)", token: ada.accessToken).status == 204)
                #expect(try phoneStream.ends())
                #expect(try Self.status(server, of: ada.id, token: bob.accessToken) == "online", "her other session holds her online")
                #expect(try server.call("DELETE", "/v1/auth/sessions/\(adaSession)", token: ada.accessToken).status == 204)
                #expect(try adaStream.ends())
            case "password change":
                let changed = try server.call("POST", "/v1/auth/password", json: ["currentPassword": AccountServer.password, "newPassword": "Marmalade-Orbit-77"], token: ada.accessToken)
                #expect(changed.status == 200)
                #expect(try phoneStream.ends() && adaStream.ends(), "every old session ended")
            case "logout everywhere":
                #expect(try server.call("POST", "/v1/auth/logout-all", token: ada.accessToken).status == 204)
                #expect(try phoneStream.ends() && adaStream.ends())
            default:
                #expect(try PasswordReset.requestReset(server, "ada@example.com").status == 202)
                let mail = try #require(try PasswordReset.mails(server, atLeast: 1).first)
                let token = try #require(PasswordReset.token(in: mail))
                #expect(try PasswordReset.confirm(server, token, "a-whole-new-passphrase").status == 204)
                #expect(try phoneStream.ends() && adaStream.ends())
            }
            #expect(try Self.status(server, of: ada.id, token: bob.accessToken) == "offline", "offline at once: the answer waited for it")
        }

        @Test func deletingTheAccountSendsItsWatchersALastOfflineAndEndsItsStreams() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            let watcher = try PresenceEventStream(server, token: bob.accessToken, watching: [ada.id])
            guard case .presence(ada.id, "online", _)? = try watcher.next() else { throw TestError("no snapshot") }
            let adaStream = try PresenceEventStream(server, token: ada.accessToken, watching: [bob.id])
            #expect(try server.call("DELETE", "/v1/users/me", json: ["password": AccountServer.password], token: ada.accessToken).status == 204)
            var last: PresenceEventStream.Message?
            for _ in 0..<5 {  // her own stream's "online" may come first
                last = try watcher.nextPresence()
                if case .presence(_, "offline", _)? = last { break }
            }
            guard case .presence(ada.id, "offline", _)? = last else { throw TestError("no last offline: \(String(describing: last))") }
            #expect(try adaStream.ends())
            expectProblem(try server.call("GET", "/v1/presence/\(ada.id)", token: bob.accessToken), 404, "USER_NOT_FOUND")
        }

        @Test func aQuietStreamGetsAKeepAliveComment() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let stream = try PresenceEventStream(server, token: ada.accessToken, watching: [ada.id], timeout: 20)
            let started = Date()
            var comment: PresenceEventStream.Message?
            for _ in 0..<5 {
                comment = try stream.next()
                if case .comment? = comment { break }
            }
            #expect(comment == .comment("keepalive"))
            #expect(Date().timeIntervalSince(started) < 16.5, "within 15 s of the last keep-alive tick")
        }

        @Test func refusalsAreProblemsNotStreams() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            expectProblem(try server.call("GET", "/v1/presence/stream?userIds=\(ada.id)"), 401, "UNAUTHENTICATED")
            expectProblem(try server.call("GET", "/v1/presence/stream?userIds=\(ada.id)", token: "not-a-token"), 401, "INVALID_TOKEN")
            let tooMany = (0...100).map { "id\($0)" }.joined(separator: ",")
            for query in ["", "?userIds=", "?userIds=a,,b", "?userIds=\(tooMany)"] {
                expectProblem(try server.call("GET", "/v1/presence/stream\(query)", token: ada.accessToken), 400, "INVALID_ARGUMENT", "query \(query)")
            }
        }

        /// SIGTERM ends every stream and commits its user's offline before the process exits.
        @Test func shutdownEndsStreamsAndTakesTheirUsersOffline() throws {
            let server = try AccountServer()
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            let stream = try PresenceEventStream(server, token: ada.accessToken, watching: [ada.id])
            guard case .presence(ada.id, "online", _)? = try stream.next() else { throw TestError("no snapshot") }
            let restarted = try server.restarted()
            defer { restarted.stop() }
            #expect(try stream.ends())
            #expect(try Self.status(restarted, of: ada.id, token: bob.accessToken) == "offline", "committed before the exit")
        }
    }
}
