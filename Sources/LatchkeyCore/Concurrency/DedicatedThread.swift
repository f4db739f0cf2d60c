import Glibc

/// A plain pthread for work that blocks by design (the writer waiting for jobs, a
/// PBKDF2 worker), so it never occupies Swift's cooperative pool.
enum DedicatedThread {
    private final class Body: Sendable {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    static func start(_ run: @escaping @Sendable () -> Void) {
        var thread = pthread_t()
        let body = Unmanaged.passRetained(Body(run)).toOpaque()
        let result = pthread_create(&thread, nil, { pointer in
            Unmanaged<Body>.fromOpaque(pointer!).takeRetainedValue().run()
            return nil
        }, body)
        precondition(result == 0, "pthread_create failed (\(result)): the process is out of threads")
        pthread_detach(thread)
    }
}
