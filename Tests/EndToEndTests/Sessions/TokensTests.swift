import Foundation
import Testing
import TestSupport

extension Accounts {
    /// Access tokens: what PyJWT (another implementation) makes of ours, and how the
    /// server answers tokens that were forged, tampered with, expired or signed with a key
    /// it does not know.
    @Suite struct Tokens {
        /// PyJWT's verdict on a token: header and claims, or a thrown error (failing the test).
        static func verifiedByPyJWT(_ token: String, key: [UInt8], issuer: String) throws -> (header: [String: Any], claims: [String: Any]) {
            let output = try runPython("""
                import base64, json, sys
                import jwt
                token, key, issuer = sys.argv[1], base64.b64decode(sys.argv[2]), sys.argv[3]
                claims = jwt.decode(token, key, algorithms=["HS256"], audience="latchkey", issuer=issuer,
                                    options={"require": ["iss", "aud", "sub", "iat", "exp"]})
                print(json.dumps({"header": jwt.get_unverified_header(token), "claims": claims}))
                """, arguments: [token, Data(key).base64EncodedString(), issuer])
            let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            guard let header = object?["header"] as? [String: Any], let claims = object?["claims"] as? [String: Any] else {
                throw TestError("unexpected PyJWT output: \(output)")
            }
            return (header, claims)
        }

        @Test func pyJWTVerifiesEveryAccessTokenTheServerIssues() throws {
            let server = try AccountServer(issuer: nil)  // the default issuer: the public URL
            defer { server.stop() }
            let signup = try server.signUp("ada@example.com", "ada")
            let login = try server.logIn("ada@example.com")
            let refreshed = try Account(try server.refresh(login.refreshToken), password: login.password)
            let now = Int(Date().timeIntervalSince1970)

            for (name, account) in [("signup", signup), ("login", login), ("refresh", refreshed)] {
                let (header, claims) = try Self.verifiedByPyJWT(account.accessToken, key: server.signingKey, issuer: server.issuer)
                #expect(header["alg"] as? String == "HS256", "\(name): \(header)")
                #expect(header["kid"] as? String == AccountServer.keyID, "\(name): \(header)")
                #expect(claims["iss"] as? String == server.publicURL, "\(name): \(claims)")
                let audience = claims["aud"]
                #expect(audience as? String == "latchkey" || (audience as? [String])?.contains("latchkey") == true, "\(name): \(claims)")
                #expect(claims["sub"] as? String == signup.id, "\(name): \(claims)")
                #expect(claims["email"] as? String == "ada@example.com", "\(name): \(claims)")
                #expect(claims["email_verified"] as? Bool == false, "\(name): \(claims)")
                let iat = claims["iat"] as? Int ?? 0
                let exp = claims["exp"] as? Int ?? 0
                #expect(abs(iat - now) < 120, "\(name): iat is now: \(claims)")
                #expect(exp - iat == 3600, "\(name): exp is iat + accessTokenTTL: \(claims)")
                #expect((claims["sid"] as? String)?.isEmpty == false, "\(name): \(claims)")
                #expect(claims["amr"] as? [String] == ["pwd"], "\(name): a password sign-in, and its refresh: \(claims)")
            }
            #expect(refreshed.sessionID == login.sessionID)
            let sessions = try server.call("GET", "/v1/auth/sessions", token: login.accessToken)
            let current = (sessions["sessions"] as? [[String: Any]])?.first { $0["current"] as? Bool == true }
            #expect(current?["id"] as? String == login.sessionID, "sid names the session: \(sessions)")
        }

        @Test func pyJWTRefusesTheServersTokenUnderAnotherKey() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            // PyJWT must name the signature as the reason: a missing python or PyJWT, or a
            // token it cannot even parse, fails this test instead of passing it.
            let verdict = try runPython("""
                import base64, sys
                import jwt
                token, key, issuer = sys.argv[1], base64.b64decode(sys.argv[2]), sys.argv[3]
                try:
                    jwt.decode(token, key, algorithms=["HS256"], audience="latchkey", issuer=issuer)
                    print("accepted")
                except jwt.InvalidSignatureError:
                    print("InvalidSignatureError")
                """, arguments: [ada.accessToken, Data(Array(repeating: 7, count: 32)).base64EncodedString(), server.issuer])
            #expect(verdict == "InvalidSignatureError")
        }

        @Test func forgedAndDamagedTokensAreRefusedWithTheContractsCodes() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let ada = try server.signUp("ada@example.com", "ada")
            let bob = try server.signUp("bob@example.com", "bob")
            let real = try #require(JWTParts(ada.accessToken))
            let key = server.signingKey
            let now = Int(Date().timeIntervalSince1970)
            let header = real.header
            var noKid = header
            noKid["kid"] = nil
            var pastPayload = real.payload
            pastPayload["iat"] = now - 7200
            pastPayload["exp"] = now - 3600
            var freshPayload = real.payload
            freshPayload["iat"] = now
            freshPayload["exp"] = now + 600
            let none = try JWTParts.segment(["alg": "none", "typ": "JWT", "kid": AccountServer.keyID]) + "." + real.encodedPayload

            func bearer(_ token: String) -> [String: String] { ["Authorization": "Bearer \(token)"] }
            func row(_ name: String, _ headers: [String: String], _ status: Int, _ code: String?) -> Scenario {
                Scenario(name, "GET", "/v1/users/me", headers: headers, status: status, code: code, excludes: ["bob@example.com", "ada@example.com"])
            }
            let control = try JWTParts.signed(header: header, payload: freshPayload, key: key)
            try server.run([
                Scenario("control: a token the test signed with the configured key", "GET", "/v1/users/me", headers: bearer(control), status: 200),
                row("no Authorization header", [:], 401, "UNAUTHENTICATED"),
                row("Basic credentials", ["Authorization": "Basic YWRhOmxpZ2h0aG91c2U="], 401, "UNAUTHENTICATED"),
                row("Bearer without a token", ["Authorization": "Bearer"], 401, "UNAUTHENTICATED"),
                row("a token without the scheme", ["Authorization": ada.accessToken], 401, "UNAUTHENTICATED"),
                row("a token that is not a JWT", bearer("not-a-jwt"), 401, "INVALID_TOKEN"),
                row("three segments of nothing", bearer("a.b.c"), 401, "INVALID_TOKEN"),
                row("alg none without a signature", bearer(none + "."), 401, "INVALID_TOKEN"),
                row("alg none with the real signature", bearer(none + "." + real.signature), 401, "INVALID_TOKEN"),
                row("the signature removed", bearer(real.encodedHeader + "." + real.encodedPayload + "."), 401, "INVALID_TOKEN"),
                row("another user's id in the payload", bearer(try real.withPayload { $0["sub"] = bob.id }), 401, "INVALID_TOKEN"),
                row("a later exp in the payload", bearer(try real.withPayload { $0["exp"] = now + 86_400 * 365 }), 401, "INVALID_TOKEN"),
                row("email_verified flipped in the payload", bearer(try real.withPayload { $0["email_verified"] = true }), 401, "INVALID_TOKEN"),
                row("an unknown kid, signed with the configured key",
                    bearer(try JWTParts.signed(header: header.merging(["kid": "k9"]) { $1 }, payload: freshPayload, key: key)), 401, "INVALID_TOKEN"),
                row("no kid, signed with the configured key", bearer(try JWTParts.signed(header: noKid, payload: freshPayload, key: key)), 401, "INVALID_TOKEN"),
                row("the right kid, signed with another key",
                    bearer(try JWTParts.signed(header: header, payload: freshPayload, key: Array(repeating: 42, count: 32))), 401, "INVALID_TOKEN"),
                row("HS512 with the configured key",
                    bearer(try JWTParts.signed(header: header.merging(["alg": "HS512"]) { $1 }, payload: freshPayload, key: key, digest: "sha512")),
                    401, "INVALID_TOKEN"),
                row("a past exp, signed with the configured key", bearer(try JWTParts.signed(header: header, payload: pastPayload, key: key)),
                    401, "TOKEN_EXPIRED"),
            ])
            #expect(try server.me(ada.accessToken).status == 200, "the real token still works")
        }

        @Test func aRetiredKeyVerifiesWhileItIsListedAndNotAfter() throws {
            let oldKey = (0..<32).map { _ in UInt8.random(in: 0...255) }
            let newKey = (0..<48).map { _ in UInt8.random(in: 0...255) }
            let old = "k1:\(Data(oldKey).base64EncodedString())"
            let new = "k2:\(Data(newKey).base64EncodedString())"
            let first = try AccountServer(signingKey: oldKey, signingKeys: old)
            let ada = try first.signUp("ada@example.com", "ada")
            first.stop()

            let rotating = try AccountServer(dataDirectory: first.dataDirectory, signingKey: newKey, signingKeys: "\(new),\(old)")
            #expect(try rotating.me(ada.accessToken).status == 200, "a token signed with the old key still verifies")
            let renewed = try rotating.logIn("ada@example.com")
            #expect(JWTParts(renewed.accessToken)?.header["kid"] as? String == "k2", "the first key signs")
            _ = try Self.verifiedByPyJWT(renewed.accessToken, key: newKey, issuer: rotating.issuer)
            rotating.stop()

            let retired = try AccountServer(dataDirectory: first.dataDirectory, signingKey: newKey, signingKeys: new)
            defer { retired.stop() }
            expectProblem(try retired.me(ada.accessToken), 401, "INVALID_TOKEN", "the old key is no longer listed")
            #expect(try retired.me(renewed.accessToken).status == 200)
        }
    }
}
