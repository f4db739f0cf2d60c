import CLinuxShims
import Glibc

/// An eventfd that other threads write to so a sleeping event loop wakes up.
struct Wakeup: Sendable {
    let fd: Int32

    init() throws(IOError) {
        fd = try syscallThatCannotBlock("eventfd") { eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC)) }
    }

    /// Safe from any thread; a full counter already means "wake up", so EAGAIN is fine.
    func signal() {
        var one: UInt64 = 1
        _ = try? syscall("write") { Glibc.write(fd, &one, 8) }
    }

    /// Resets the counter; called by the loop that owns it.
    func drain() {
        var value: UInt64 = 0
        _ = try? syscall("read") { Glibc.read(fd, &value, 8) }
    }

    func close() {
        closeDescriptor(fd)
    }
}
