import Foundation
import Testing
import TestSupport

extension Accounts {
    /// What arrives on the wire is compared and bounded as bytes, never as Swift
    /// `String`s (whose `==` is Unicode canonical equivalence: "\u{212A}" == "K").
    @Suite struct WireBytes {
        @Test func aTokenWithAKelvinSignForAKIsRefusedEvenOnceTheRealOneIsCached() throws {
            let server = try AccountServer()
            defer { server.stop() }
            try server.signUp("ada@example.com", "ada")
            // Almost every token has a "K" somewhere; log in again until one does.
            var token: String?
            for _ in 0..<40 where token == nil {
                let candidate = try server.logIn("ada@example.com").accessToken
                if candidate.contains("K") { token = candidate }
            }
            let real = try #require(token)
            #expect(try server.me(real).status == 200, "the real token, now in the loop's cache")
            let lookalike = real.replacingOccurrences(of: "K", with: "\u{212A}")
            #expect(lookalike == real, "Swift's String equality cannot tell them apart")
            for _ in 0..<4 {  // whichever event loop answers, its cache holds the real token by now
                #expect(try server.me(real).status == 200)
                expectProblem(try server.me(lookalike), 401, "INVALID_TOKEN")
            }
        }

        @Test func theUserAgentKeptForASessionIsCutAt512BytesOnACharacterBoundary() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let agent = String(repeating: "é", count: 600)  // 1,200 bytes, 600 characters
            let ada = try server.signUp("ada@example.com", "ada", userAgent: agent)
            let sessions = try server.call("GET", "/v1/auth/sessions", token: ada.accessToken)
            let kept = try #require((sessions["sessions"] as? [[String: Any]])?.first?["userAgent"] as? String)
            #expect(kept.utf8.count == 512)
            #expect(kept == String(repeating: "é", count: 256))
        }
    }
}

extension Accounts {
    /// The order of refusals a client sees: a body of the wrong type is told its type
    /// (415) before its size (413), since the size limit is for JSON.
    @Suite struct MediaTypeBeforeSize {
        @Test func aLargeTextBodyIs415AndALargeJSONBodyIs413() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let large = String(repeating: "x", count: 100 * 1024)
            expectProblem(try server.call("POST", "/v1/auth/login", raw: large, contentType: "text/plain"), 415, "UNSUPPORTED_MEDIA_TYPE")
            expectProblem(try server.call("POST", "/v1/auth/login", raw: large, contentType: "application/json"), 413, nil)
            expectProblem(try server.call("POST", "/v1/auth/login", raw: "{}", contentType: "application/j\u{017F}on"), 415, "UNSUPPORTED_MEDIA_TYPE")
        }

        @Test func optionsIsAnsweredForEveryAPIPath() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let me = try server.call("OPTIONS", "/v1/users/me")
            #expect(me.status == 204)
            #expect(me.header("Allow") == "GET, PATCH, DELETE, HEAD, OPTIONS")
        }
    }
}
