import CLinuxShims
import Glibc

public enum ListenError: Error, CustomStringConvertible, Sendable {
    case addressInUse(host: String, port: Int)
    case unresolvableHost(String)
    case permissionDenied(host: String, port: Int)
    case system(IOError)

    public var description: String {
        switch self {
        case .addressInUse(let host, let port): "port \(port) on \(host) is already in use"
        case .unresolvableHost(let host): "cannot listen on '\(host)': not an address of this machine"
        case .permissionDenied(let host, let port): "not allowed to listen on \(host):\(port) (ports below 1024 need privileges)"
        case .system(let error): "cannot listen: \(error)"
        }
    }
}

/// Socket set-up for listeners and accepted connections.
enum Socket {
    /// A non-blocking listening socket, shared by every event loop. No SO_REUSEPORT: with it
    /// a second server could bind the same port silently instead of failing to start.
    static func listen(host: String, port: Int, backlog: Int32 = 4096) throws(ListenError) -> (fd: Int32, port: Int) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
            throw .unresolvableHost(host)
        }
        defer { freeaddrinfo(result) }

        let fd: Int32
        do {
            fd = try syscallThatCannotBlock("socket") {
                socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            }
        } catch {
            throw .system(error)
        }
        var on: Int32 = 1
        _ = try? syscall("setsockopt") { setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size)) }
        do {
            _ = try syscallThatCannotBlock("bind") { Glibc.bind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) }
        } catch {
            closeDescriptor(fd)
            switch error.errno {
            case EADDRINUSE: throw .addressInUse(host: host, port: port)
            case EACCES: throw .permissionDenied(host: host, port: port)
            case EADDRNOTAVAIL: throw .unresolvableHost(host)
            default: throw .system(error)
            }
        }
        do {
            _ = try syscallThatCannotBlock("listen") { Glibc.listen(fd, backlog) }
        } catch {
            closeDescriptor(fd)
            throw error.errno == EADDRINUSE ? .addressInUse(host: host, port: port) : .system(error)
        }
        return (fd, localPort(fd))
    }

    static func localPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                _ = try? syscall("getsockname") { getsockname(fd, address, &length) }
            }
        }
        return port(of: storage)
    }

    /// Accepts one pending connection, non-blocking, with Nagle off (responses are written whole).
    static func accept(_ listener: Int32) throws(IOError) -> (fd: Int32, address: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = try syscall("accept4") {
            withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept4(listener, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                }
            }
        }
        guard case .done(let fd) = result else { return nil }
        var on: Int32 = 1
        _ = try? syscall("setsockopt") { setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size)) }
        return (fd, address(of: storage))
    }

    static func address(of storage: sockaddr_storage) -> String {
        var storage = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch Int32(storage.ss_family) {
        case AF_INET:
            withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { pointer in
                    var address = pointer.pointee.sin_addr
                    _ = inet_ntop(AF_INET, &address, &buffer, socklen_t(buffer.count))
                }
            }
        case AF_INET6:
            withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { pointer in
                    var address = pointer.pointee.sin6_addr
                    _ = inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count))
                }
            }
        default:
            return "unknown"
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        return withUnsafePointer(to: &storage) {
            switch Int32($0.pointee.ss_family) {
            case AF_INET: $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            case AF_INET6: $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            default: 0
            }
        }
    }
}
