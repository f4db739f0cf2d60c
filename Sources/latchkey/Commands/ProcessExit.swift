import Glibc

/// The one way the process ends: what the log and stdout hold is written, then `_exit`,
/// which runs no `atexit` handlers and no library's exit-time teardown. A server ends with
/// threads of its own still alive (the hashing pool, PostgreSQL's listener and batch
/// threads, the log writer), and that teardown racing them turned a clean status into a
/// signal now and then: a SIGSEGV in libcrypto after "stopped", a SIGABRT after a refused
/// start over PostgreSQL. Nothing the server keeps needs it: the database is closed (or
/// was never written) before this is called.
enum ProcessExit {
    static func now(_ status: Int32) -> Never {
        BufferedStandardError.flushIfStarted()
        fflush(nil)  // every stdio stream: what `print` left in stdout's buffer
        _exit(status)
    }
}
