import Glibc
import PostgreSQL
import Testing

extension PostgreSQLTests {
    /// A connection notices a server that is gone in bounded time, read off its socket:
    /// keepalives after 10 s of silence, every 5 s, 3 unanswered; data unacknowledged for
    /// 30 s ends it. A URL that sets its own wins.
    @Suite struct ConnectionDefaultsTests {
        let schema: TestSchema

        init() throws {
            schema = try TestSchema()
        }

        static func option(_ level: Int32, _ name: Int32, of connection: Connection) -> Int32 {
            var value: Int32 = -1
            var length = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(connection.socketDescriptor, level, name, &value, &length) == 0 else { return -1 }
            return value
        }

        // netinet/tcp.h
        static let (keepIdle, keepInterval, keepCount, userTimeout): (Int32, Int32, Int32, Int32) = (4, 5, 6, 18)

        @Test func aDeadServerIsNoticedInBoundedTime() throws {
            let connection = try schema.connect()
            #expect(Self.option(SOL_SOCKET, SO_KEEPALIVE, of: connection) == 1)
            #expect(Self.option(Int32(IPPROTO_TCP), Self.keepIdle, of: connection) == 10)
            #expect(Self.option(Int32(IPPROTO_TCP), Self.keepInterval, of: connection) == 5)
            #expect(Self.option(Int32(IPPROTO_TCP), Self.keepCount, of: connection) == 3)
            #expect(Self.option(Int32(IPPROTO_TCP), Self.userTimeout, of: connection) == 30_000)
        }

        @Test func theURLsOwnSettingsWin() throws {
            let connection = try Connection(url: schema.url + "&keepalives_idle=60&tcp_user_timeout=5000")
            #expect(Self.option(Int32(IPPROTO_TCP), Self.keepIdle, of: connection) == 60)
            #expect(Self.option(Int32(IPPROTO_TCP), Self.userTimeout, of: connection) == 5_000)
        }
    }
}
