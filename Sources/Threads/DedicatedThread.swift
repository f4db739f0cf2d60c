import Dispatch
import Glibc

/// A plain pthread for work that blocks by design (an event loop in epoll_wait, the
/// database writer waiting for jobs, a PBKDF2 worker), so it never occupies Swift's
/// cooperative pool, which runs the API's writes.
public enum DedicatedThread {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts `run` on a new thread and returns it, to be joined. `name` is what `top -H`,
    /// `ps -L` and `perf` show for the thread (`/proc/PID/task/TID/comm`); the kernel keeps
    /// its first 15 bytes. Returns only once the thread has its name, so that whatever the
    /// caller announces next (the server's "listening" line) finds every thread named.
    public static func spawn(named name: String, _ run: @escaping @Sendable () -> Void) -> pthread_t {
        let named = DispatchSemaphore(value: 0)
        var thread = pthread_t()
        let body = Unmanaged.passRetained(Body {
            nameThisThread(name)
            named.signal()
            run()
        }).toOpaque()
        let result = pthread_create(&thread, nil, { pointer in
            Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue().run()
            return nil
        }, body)
        precondition(result == 0, "pthread_create failed (\(result)): the process is out of threads")
        named.wait()
        return thread
    }

    /// Starts `run` on a new thread that nobody joins.
    public static func start(named name: String, _ run: @escaping @Sendable () -> Void) {
        pthread_detach(spawn(named: name, run))
    }

    /// Names the calling thread by writing its `comm` (what pthread_setname_np does on Linux;
    /// Swift's Glibc module does not export it). A name that cannot be set leaves the
    /// process's: naming is for people reading `top`, nothing depends on it.
    private static func nameThisThread(_ name: String) {
        let descriptor = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let bytes = Array(name.utf8.prefix(15))
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}
