import Glibc
import Logging
import Testing
@testable import HTTPServer

/// A closed connection's descriptor number is free for the next socket or file anyone in
/// the process opens; whatever still holds the connection (a late write, an interest
/// update after a failed `epoll_ctl`) must not touch that number again.
@Suite struct ClosedConnectionTests {
    private func socketPair() -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    /// A free descriptor number far above what the other tests running beside this one
    /// get (the kernel hands out the lowest free number), so reusing it below takes
    /// nothing from them.
    private func unusedHighDescriptor() throws -> Int32 {
        var limit = rlimit()
        #expect(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0)
        let top = Int32(min(limit.rlim_cur, 4096)) - 1
        let free = (top - 64...top).filter { fcntl($0, F_GETFD) == -1 }
        return try #require(free.randomElement(), "a free descriptor below the limit of \(limit.rlim_cur)")
    }

    @Test func aClosedConnectionWritesNothingToTheDescriptorThatReusedItsNumber() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { Glibc.close(listener) }
        let shared = ServerShared(
            configuration: ServerConfiguration(), router: Router(), logger: Logger(label: "closed-connection-test"),
            errorResponder: { _, _ in Response(status: 500) }
        )
        let loop = try EventLoop(index: 0, listener: listener, shared: shared)
        let (opened, oldPeer) = socketPair()
        defer { Glibc.close(oldPeer) }
        let old = try unusedHighDescriptor()
        #expect(dup2(opened, old) == old)
        Glibc.close(opened)
        let connection = Connection(
            fd: old, id: 1, remoteAddress: "127.0.0.1", limits: HeadLimits(), policy: ConnectionPolicy(rules: loop.deadlines, now: loop.now)
        )
        loop.connections = Array(repeating: nil, count: Int(old) + 1)
        loop.connections[Int(old)] = connection
        shared.openConnections.add(1, ordering: .relaxed)

        loop.close(connection)
        // Another socket takes the number, as the next one opened anywhere in the process
        // may: dup2 makes sure of it, on a number no other test holds.
        let (fresh, reusedPeer) = socketPair()
        #expect(dup2(fresh, old) == old)
        Glibc.close(fresh)
        defer { Glibc.close(old); Glibc.close(reusedPeer) }

        connection.output = Array("HTTP/1.1 200 OK\r\n\r\nleaked".utf8)
        loop.flush(connection)
        loop.updateInterest(connection)
        loop.readable(connection)
        var byte: UInt8 = 0
        #expect(recv(reusedPeer, &byte, 1, Int32(MSG_DONTWAIT)) == -1 && errno == EAGAIN, "nothing reached the new owner of the number")
    }
}
