import PostgreSQL
import Testing

extension PostgreSQLTests {
    /// A failed connect's message goes to the log and to the operator's terminal: the
    /// URL's password field must not, and nothing else of the message may be touched.
    /// No server is needed: port 1 on 127.0.0.1 refuses, and libpq rejects a malformed URL
    /// before it connects at all.
    @Suite struct ConnectErrorPasswordTests {
        private func connectError(_ url: String) -> String {
            do {
                _ = try Connection(url: url)
                Issue.record("connecting to \(url) succeeded")
                return ""
            } catch {
                guard case .cannotConnect(let message) = error else {
                    Issue.record("expected cannotConnect, got \(error)")
                    return ""
                }
                return message
            }
        }

        /// The operator's password is `p`. Before, every `p` of libpq's message was masked:
        /// the log read `connection to server at "127.0.0.1", ***ort 1 failed: ... acce***ting`,
        /// unreadable, and telling whoever reads the log which letters the password is made of.
        @Test func aOneLetterPasswordLeavesTheMessageAsLibpqWroteIt() {
            let message = connectError("postgres://latchkey:p@127.0.0.1:1/latchkey")
            #expect(message.contains("port 1 failed"))
            #expect(message.contains("accepting TCP/IP connections"))
            #expect(!message.contains("***"))
        }

        /// libpq quotes the whole URL when it cannot parse it (here: an IPv6 address without
        /// its closing bracket): the password field is masked there, the rest stays readable.
        @Test func aQuotedURLShowsItsPasswordFieldMasked() {
            let message = connectError("postgres://latchkey:s3cret-pw@[::1:1/latchkey")
            #expect(message.contains("\"postgres://latchkey:***@[::1:1/latchkey\""))
            #expect(!message.contains("s3cret-pw"))
        }

        /// libpq quotes the password alone when it cannot percent-decode it.
        @Test func aQuotedPasswordIsMasked() {
            let message = connectError("postgres://latchkey:s3cret%zz@127.0.0.1:1/latchkey")
            #expect(message.contains("\"***\""))
            #expect(!message.contains("s3cret"))
        }
    }
}
