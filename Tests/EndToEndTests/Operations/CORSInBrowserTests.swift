import Foundation
import Glibc
import Testing
import TestSupport

extension Accounts {
    /// A web app on another origin, in a real browser (Debian's Chromium): with its origin
    /// in `corsOrigins` its `fetch` signs up and reads `/v1/users/me` (and may read
    /// `X-Request-Id`); from an origin not listed, the browser refuses the page the answer.
    @Suite struct CORSInBrowser {
        /// A port nothing listens on right now, for the page server the browser test starts.
        static func freePort() throws -> Int {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound else { throw TestError("no free port: \(String(cString: strerror(errno)))") }
            return Int(UInt16(bigEndian: address.sin_port))
        }

        @Test func aListedOriginSignsUpAndReadsItsProfileAndAnotherCannot() throws {
            let (listed, other) = (try Self.freePort(), try Self.freePort())
            let server = try AccountServer(["--cors-origins", "http://localhost:\(listed)"])
            defer { server.stop() }
            let output = try runPythonTool("cors_in_browser.py", arguments: ["\(server.port)", "\(listed)", "\(other)"])
            let seen = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String: Any]])

            let app = try #require(seen["\(listed)"])
            #expect(app["signup"] as? Int == 201)
            #expect(app["me"] as? Int == 200)
            #expect(app["email"] as? String == "web\(listed)@example.com")
            #expect((app["requestId"] as? String)?.isEmpty == false, "X-Request-Id is exposed to the page")

            let stranger = try #require(seen["\(other)"])
            #expect((stranger["error"] as? String)?.contains("Failed to fetch") == true, "the browser keeps the answer from an unlisted origin: \(stranger)")
        }
    }
}
