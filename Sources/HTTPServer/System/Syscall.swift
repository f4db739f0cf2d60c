import Glibc

/// A failed system call: the call's name and errno, never the bytes it carried.
public struct IOError: Error, CustomStringConvertible, Sendable {
    public let call: String
    public let errno: Int32

    public var description: String { "\(call) failed: \(String(cString: strerror(errno)))" }
}

enum IOResult<Value> {
    case done(Value)
    case wouldBlock
}

/// Every system call of the engine goes through here: EINTR is retried, EAGAIN comes back
/// as a value, the rest throws. EBADF and EFAULT mean the engine itself mixed up a
/// descriptor or a buffer, so they trap instead of being handled as peer behaviour.
/// Nothing else in the engine reads `errno`. (Clock reads, `clock_gettime` and `time`,
/// cannot fail and are not funnelled; `getaddrinfo` reports its own codes, not `errno`.)
@inline(__always)
func syscall<Value: BinaryInteger>(_ call: StaticString, _ body: () -> Value) throws(IOError) -> IOResult<Value> {
    while true {
        let result = body()
        if result >= 0 { return .done(result) }
        let code = Glibc.errno
        switch code {
        case EINTR:
            continue
        case EAGAIN, EWOULDBLOCK:
            return .wouldBlock
        case EBADF, EFAULT:
            preconditionFailure("\(call) failed with errno \(code): the engine passed a bad descriptor or buffer")
        default:
            throw IOError(call: "\(call)", errno: code)
        }
    }
}

/// The funnel for a call that cannot block (setting up a socket, reading a regular file):
/// EAGAIN there is a failure like any other.
@inline(__always)
func syscallThatCannotBlock<Value: BinaryInteger>(_ call: StaticString, _ body: () -> Value) throws(IOError) -> Value {
    switch try syscall(call, body) {
    case .done(let value): return value
    case .wouldBlock: throw IOError(call: "\(call)", errno: EAGAIN)
    }
}

/// `close` is not retried on EINTR: on Linux the descriptor is released either way.
func closeDescriptor(_ fd: Int32) {
    _ = Glibc.close(fd)
}
