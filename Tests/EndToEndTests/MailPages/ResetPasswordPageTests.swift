import Foundation
import Testing
import TestSupport

extension Accounts {
    /// The page behind the emailed link, as a browser without JavaScript uses it: a form
    /// that posts back, kept with a clear message when something is wrong.
    @Suite struct ResetPasswordPage {
        static func link(_ server: AccountServer) throws -> String {
            try server.signUp("ada@example.com", "ada")
            _ = try PasswordReset.requestReset(server, "ada@example.com")
            let mail = try #require(try PasswordReset.mails(server, atLeast: 1).first)
            return try #require(PasswordReset.token(in: mail))
        }

        static func post(_ server: AccountServer, _ fields: [(String, String)]) throws -> JSONResponse {
            let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
            let body = fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed)!)" }.joined(separator: "&")
            return try server.call("POST", "/reset-password", raw: body, contentType: "application/x-www-form-urlencoded")
        }

        static func expectPageHeaders(_ page: JSONResponse, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(page.header("Content-Type") == "text/html; charset=utf-8", sourceLocation: sourceLocation)
            #expect(page.header("Referrer-Policy") == "no-referrer", sourceLocation: sourceLocation)
            #expect(page.header("Content-Security-Policy")?.contains("default-src 'none'") == true, sourceLocation: sourceLocation)
            #expect(page.header("Cache-Control") == "no-store", sourceLocation: sourceLocation)
            #expect(!page.text.contains("<script"), sourceLocation: sourceLocation)
        }

        @Test func theLinkOpensAFormThatChangesThePassword() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let token = try Self.link(server)
            let page = try server.call("GET", "/reset-password?token=\(token)")
            #expect(page.status == 200)
            Self.expectPageHeaders(page)
            #expect(page.text.contains(#"<label for="password">"#))
            #expect(page.text.contains(#"<form method="post" action="/reset-password">"#))

            let done = try Self.post(server, [("token", token), ("password", "a-whole-new-passphrase"), ("confirmPassword", "a-whole-new-passphrase")])
            #expect(done.status == 200)
            Self.expectPageHeaders(done)
            #expect(done.text.contains("Your password has been changed"))
            try server.logIn("ada@example.com", password: "a-whole-new-passphrase")
            #expect(try server.call("GET", "/reset-password?token=\(token)").status == 400, "the link works once")
            #expect(!server.process.output.contains(token), "the token never reaches the log")
        }

        @Test func mismatchedOrWeakPasswordsKeepTheFormWithWhatIsWrong() throws {
            let server = try AccountServer()
            defer { server.stop() }
            let token = try Self.link(server)
            let differ = try Self.post(server, [("token", token), ("password", "a-whole-new-passphrase"), ("confirmPassword", "a-whole-new-passphrase!")])
            #expect(differ.status == 400)
            #expect(differ.text.contains("The two passwords differ."))
            #expect(differ.text.contains(#"value="\#(token)""#), "the form is kept, with its token")
            #expect(!differ.text.contains("a-whole-new-passphrase"), "a password is never echoed back")

            let weak = try Self.post(server, [("token", token), ("password", "12345678"), ("confirmPassword", "12345678")])
            #expect(weak.status == 400)
            #expect(weak.text.contains("This password is too common"))
            let done = try Self.post(server, [("token", token), ("password", "a-whole-new-passphrase"), ("confirmPassword", "a-whole-new-passphrase")])
            #expect(done.status == 200, "the refusals used nothing up")
        }

        @Test func anUnknownOrMissingTokenShowsTheInvalidLinkPage() throws {
            let server = try AccountServer()
            defer { server.stop() }
            for target in ["/reset-password?token=made-up", "/reset-password"] {
                let page = try server.call("GET", target)
                #expect(page.status == 400)
                Self.expectPageHeaders(page)
                #expect(page.text.contains("This link no longer works"))
            }
            let posted = try Self.post(server, [("token", "made-up"), ("password", "a-whole-new-passphrase"), ("confirmPassword", "a-whole-new-passphrase")])
            #expect(posted.status == 400)
            #expect(posted.text.contains("This link no longer works"))
            expectProblem(try server.call("POST", "/reset-password", json: ["token": "made-up"]), 415, "UNSUPPORTED_MEDIA_TYPE", "only the form")
        }

        /// A product team changes the words without recompiling, in
        /// `{dataDir}/templates/pages.txt`; a key that does not exist stops the start.
        @Test func thePageWordsComeFromTheTemplatesFolder() throws {
            let directory = LatchkeyProcess.makeTemporaryDirectory()
            try FileManager.default.createDirectory(atPath: directory + "/templates", withIntermediateDirectories: true)
            try """
                # Our own words
                resetTitle = Pick a new {{productName}} password
                resetHint = {{minimumLength}} characters or more <please>
                """.write(toFile: directory + "/templates/pages.txt", atomically: true, encoding: .utf8)
            let server = try AccountServer(["--product-name", "Acme"], dataDirectory: directory)
            defer { server.stop() }
            let token = try Self.link(server)
            let page = try server.call("GET", "/reset-password?token=\(token)")
            #expect(page.text.contains("<h1>Pick a new Acme password</h1>"))
            #expect(page.text.contains("<title>Pick a new Acme password</title>"))
            #expect(page.text.contains("8 characters or more &lt;please&gt;"), "page text is escaped")
            #expect(page.text.contains("<label for=\"password\">New password</label>"), "what the file leaves out keeps its default")
            server.stop()

            try "resetTitel = typo".write(toFile: directory + "/templates/pages.txt", atomically: true, encoding: .utf8)
            let refused = try LatchkeyProcess(arguments: ["serve", "--port", "0"], dataDirectory: directory)
            #expect(refused.waitForExit() == 1)
            #expect(refused.output.contains("pages.txt line 1: expected `key = text`"))
        }
    }
}
