import Foundation
import Testing
import TestSupport

extension Accounts {
    /// The access log: a line per request with the route template, and none of the secrets
    /// the requests carried, in either log format.
    @Suite struct AccessLog {
        @Test(arguments: ["text", "json"])
        func everyRequestIsLoggedAndNoSecretIs(_ format: String) throws {
            let server = try AccountServer(["--log-format", format, "--access-log", "true"])
            let ada = try server.signUp("ada@example.com", "ada")
            let phone = try server.logIn("ada@example.com")
            let refreshed = try server.refresh(phone.refreshToken)
            #expect(refreshed.status == 200)
            #expect(try server.me(ada.accessToken).status == 200)
            #expect(try PasswordReset.requestReset(server, "ada@example.com").status == 202)
            let mail = try #require(try PasswordReset.mails(server, atLeast: 1).first)
            let resetToken = try #require(PasswordReset.token(in: mail))
            #expect(try server.call("GET", "/reset-password?token=\(resetToken)").status == 200)
            #expect(try PasswordReset.confirm(server, resetToken, "a-whole-new-passphrase").status == 204)
            _ = try server.call("GET", "/v1/users/\(ada.id)", token: "not-a-token-but-secret-looking")
            // Access lines are written in batches: stopping the server writes what waits.
            server.stop()
            let output = server.process.output

            let secrets = [
                AccountServer.password, "a-whole-new-passphrase", ada.accessToken, ada.refreshToken, phone.accessToken, phone.refreshToken,
                try #require(refreshed["refreshToken"] as? String), resetToken, "not-a-token-but-secret-looking",
            ]
            for secret in secrets {
                #expect(!output.contains(secret), "a secret reached the log: \(secret.prefix(12))…")
            }
            let lines = output.split(separator: "\n").filter { $0.contains("access") && $0.contains("request") }
            #expect(lines.count >= 8, "a line per request: \(lines.count)")
            // The development mail drop names its recipient in its own line (by design); an
            // access line never names anyone.
            #expect(!lines.contains { $0.contains("ada@example.com") })
            let reset = try #require(lines.first { $0.contains("/reset-password") && !$0.contains("/v1/") }, "the page request is logged")
            #expect(!reset.contains("?"), "the query is never logged")
            let profile = try #require(lines.first { $0.contains("/v1/users/{id}") }, "the route template, not the path")
            if format == "json" {
                let fields = try #require(try JSONSerialization.jsonObject(with: Data(profile.utf8)) as? [String: String])
                #expect(fields["method"] == "GET" && fields["status"] == "401" && fields["address"] == "127.0.0.1")
                #expect(fields["logger"] == "access" && fields["request_id"]?.isEmpty == false && fields["duration_ms"] != nil && fields["bytes"] != nil)
            } else {
                for field in ["method=GET", "status=401", "address=127.0.0.1", "request_id=", "duration_ms=", "bytes="] {
                    #expect(profile.contains(field), "\(field) in \(profile)")
                }
            }
        }

        /// An operator expects a line per request without asking, as from nginx.
        @Test func theAccessLogIsOnByDefault() throws {
            let server = try AccountServer()
            _ = try server.signUp("ada@example.com", "ada")
            // Access lines are written in batches: stopping the server writes what waits.
            server.stop()
            let line = try #require(server.process.output.split(separator: "\n").first { $0.contains("route=/v1/auth/signup") })
            for field in ["method=POST", "status=201", "address=127.0.0.1", "request_id=", "duration_ms=", "bytes="] {
                #expect(line.contains(field), "\(field) in \(line)")
            }
        }

        @Test func theAccessLogCanBeTurnedOff() throws {
            let server = try AccountServer(["--access-log", "false"])
            _ = try server.signUp("ada@example.com", "ada")
            server.stop()
            #expect(server.process.output.contains("listening on"), "the log is the server's")
            #expect(!server.process.output.contains("route=/v1/auth/signup"))
        }

        /// The attacker sends made-up method tokens (any of RFC 9110's token bytes; the
        /// parser already refuses a space, `=` or a quote there), hoping the operator's log,
        /// and whatever reads it, shows them as they came. Each line says `OTHER`, and none
        /// carries the tokens.
        @Test(arguments: ["text", "json"])
        func aMadeUpMethodIsLoggedAsOther(_ format: String) throws {
            let server = try AccountServer(["--log-format", format])
            let marker = "Zq\(UInt32.random(in: 100_000...999_999))"
            let connection = try RawConnection(port: server.port)
            for method in ["\(marker)PROBE", "\(marker)!#$%&'*+-.^_`|~", "get"] {
                try connection.send("\(method) /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                #expect(try connection.readResponse().status == 405)
            }
            server.stop()
            let output = server.process.output
            #expect(!output.contains(marker), "no made-up method reaches the log")
            let lines = output.split(separator: "\n").filter { $0.contains("status=405") || $0.contains(#""status":"405""#) }
            #expect(lines.count == 3, "\(lines)")
            for line in lines {
                if format == "json" {
                    let fields = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
                    #expect(fields["method"] == "OTHER" && fields["route"] == "unmatched" && fields["status"] == "405", "\(line)")
                } else {
                    #expect(line.contains(" method=OTHER ") && line.contains(" route=unmatched ") && line.contains(" status=405"), "\(line)")
                }
            }
        }

        /// Behind a trusted proxy that passes the client's own `X-Forwarded-For` on as it
        /// came, the attacker writes a "hop" with fields of its own (`1.2.3.4 status=200`)
        /// to forge a text line. Only an IP address is logged as the address; anything
        /// else is `invalid`.
        @Test func aForwardedHopThatIsNoAddressIsNotLoggedAsSent() throws {
            let server = try AccountServer(["--trusted-proxies", "127.0.0.1"])
            let marker = "Zq\(UInt32.random(in: 100_000...999_999))"
            let forged = "203.0.113.9 route=/\(marker) status=200"
            #expect(try server.call("GET", "/healthz", headers: ["X-Forwarded-For": forged]).status == 200)
            #expect(try server.call("GET", "/healthz", headers: ["X-Forwarded-For": "2001:db8::7"]).status == 200)
            server.stop()
            let lines = server.process.output.split(separator: "\n").filter { $0.contains(" route=/healthz ") }
            #expect(lines.count == 2, "\(lines)")
            #expect(!server.process.output.contains(marker), "the forged fields are not in the log")
            #expect(lines.contains { $0.contains("address=invalid ") }, "\(lines)")
            #expect(lines.contains { $0.contains("address=2001:db8::7 ") }, "a real forwarded address is kept: \(lines)")
        }
    }
}
