import Glibc

/// Input placed so that the byte after its last one is on an unreadable page: a parser that
/// reads past what it was handed crashes the run instead of passing by luck (picohttpparser's
/// tests do the same). One buffer serves every prefix of one row, each copied to end at the page.
public final class GuardedBuffer {
    private let base: UnsafeMutableRawPointer
    private let usableBytes: Int
    private let mappedBytes: Int

    public init(capacity: Int) {
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        usableBytes = max(1, (capacity + page - 1) / page) * page
        mappedBytes = usableBytes + page
        let mapped = mmap(nil, mappedBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        // A test machine out of address space cannot run these tests at all.
        precondition(mapped != nil && mapped != UnsafeMutableRawPointer(bitPattern: -1), "mmap failed")
        base = mapped!
        precondition(mprotect(base + usableBytes, page, PROT_NONE) == 0, "mprotect failed")
    }

    deinit {
        munmap(base, mappedBytes)
    }

    /// Hands `body` a copy of `bytes` that ends right before the unreadable page.
    public func withBytes<R>(_ bytes: ArraySlice<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        precondition(bytes.count <= usableBytes, "row larger than its guarded buffer")
        let start = (base + usableBytes - bytes.count).bindMemory(to: UInt8.self, capacity: bytes.count)
        let destination = UnsafeMutableBufferPointer(start: start, count: bytes.count)
        _ = destination.initialize(from: bytes)
        return body(UnsafeBufferPointer(destination))
    }
}
