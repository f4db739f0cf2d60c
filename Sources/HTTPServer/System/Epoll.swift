import CLinuxShims
import Glibc

/// A level-triggered epoll instance; `data` carries the descriptor back with each event.
struct Epoll {
    struct Event {
        let fd: Int32
        let readable: Bool
        let writable: Bool
        let hangup: Bool
    }

    static let readInterest = EPOLLIN.rawValue | EPOLLRDHUP.rawValue
    static let writeInterest = EPOLLOUT.rawValue
    /// For the listener all loops share: one loop is woken per new connection, not all.
    static let exclusiveReadInterest = EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue

    let fd: Int32
    private var events: UnsafeMutableBufferPointer<epoll_event>

    init(capacity: Int = 512) throws(IOError) {
        fd = try syscallThatCannotBlock("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        events = .allocate(capacity: capacity)
    }

    func close() {
        closeDescriptor(fd)
        events.deallocate()
    }

    func add(_ target: Int32, interest: UInt32) throws(IOError) {
        try control(EPOLL_CTL_ADD, target, interest)
    }

    func modify(_ target: Int32, interest: UInt32) throws(IOError) {
        try control(EPOLL_CTL_MOD, target, interest)
    }

    func remove(_ target: Int32) {
        _ = try? control(EPOLL_CTL_DEL, target, 0)
    }

    private func control(_ operation: Int32, _ target: Int32, _ interest: UInt32) throws(IOError) {
        var event = epoll_event()
        event.events = interest
        event.data.fd = target
        _ = try syscall("epoll_ctl") { epoll_ctl(fd, operation, target, &event) }
    }

    /// Waits at most `timeoutMilliseconds`, calls `woke` once, then hands each ready
    /// descriptor to `body`.
    func wait(timeoutMilliseconds: Int32, woke: () -> Void, _ body: (Event) -> Void) throws(IOError) {
        let count: Int32
        switch try syscall("epoll_wait", { epoll_wait(fd, events.baseAddress, Int32(events.count), timeoutMilliseconds) }) {
        case .done(let ready): count = ready
        case .wouldBlock: return
        }
        woke()
        for index in 0..<Int(count) {
            let event = events[index]
            body(Event(
                fd: event.data.fd,
                readable: event.events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0,
                writable: event.events & (EPOLLOUT.rawValue | EPOLLERR.rawValue) != 0,
                hangup: event.events & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0
            ))
        }
    }
}
