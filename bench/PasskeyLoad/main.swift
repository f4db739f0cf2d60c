// Passkey sign-ins against a running latchkey, for bench/run: each connection signs up an
// account and registers a passkey (a P-256 key made here with OpenSSL, `none`
// attestation), then signs in with it again and again, two round trips each (options,
// then the assertion), over its own keep-alive connection on a thread of its own. Native,
// so the load it puts on this 2-core machine is small beside the server's (the Python
// client took more CPU per sign-in than the server). Prints key=value lines: with one
// connection the median and p99 of a whole sign-in, otherwise sign-ins per second.
//
//   latchkey-passkey-load --port P --origin http://127.0.0.1:P [--connections 64] [--seconds 10]
import AuthCrypto
import Foundation
import Synchronization
import Threads

func option(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

guard let port = option("--port").flatMap(UInt16.init), let origin = option("--origin") else {
    FileHandle.standardError.write(Data("usage: latchkey-passkey-load --port P --origin URL [--connections N] [--seconds S]\n".utf8))
    exit(2)
}
let connections = option("--connections").flatMap(Int.init) ?? 64
let seconds = option("--seconds").flatMap(Double.init) ?? 10
let tag = String(UInt32.random(in: 0...UInt32.max), radix: 16)

/// What every connection's thread adds up.
struct Tally {
    var signIns = 0
    var errors = 0
    var firstError: String?
    var latencies: [Double] = []
}

let tally = Mutex(Tally())
let start = DispatchSemaphore(value: 0)
let ready = DispatchSemaphore(value: 0)
let threads = (0..<connections).map { index in
    DedicatedThread.spawn(named: "load-\(index)") {
        var account: LoadAccount
        do {
            account = try LoadAccount(port: port, origin: origin, name: "pkload_\(tag)_\(index)")
        } catch {
            tally.withLock { $0.errors += 1; $0.firstError = $0.firstError ?? "setup: \(error)" }
            ready.signal()
            return
        }
        ready.signal()
        start.wait()
        let deadline = Date().addingTimeInterval(seconds)
        var local = Tally()
        while Date() < deadline, local.signIns + local.errors < 10_000_000 {
            let began = DispatchTime.now().uptimeNanoseconds
            do {
                try account.signIn()
                local.signIns += 1
                if connections == 1 { local.latencies.append(Double(DispatchTime.now().uptimeNanoseconds - began) / 1e6) }
            } catch {
                local.errors += 1
                local.firstError = local.firstError ?? "\(error)"
                if let fresh = try? LoadAccount.reconnect(account) { account = fresh }
            }
        }
        tally.withLock {
            $0.signIns += local.signIns
            $0.errors += local.errors
            $0.firstError = $0.firstError ?? local.firstError
            $0.latencies += local.latencies
        }
    }
}
for _ in 0..<connections { ready.wait() }
for _ in 0..<connections { start.signal() }
for thread in threads { pthread_join(thread, nil) }

let result = tally.withLock { $0 }
print("signins=\(result.signIns)")
if connections == 1 {
    let sorted = result.latencies.sorted()
    let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    let p99 = sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
    print("median_ms=\(String(format: "%.3f", median))")
    print("p99_ms=\(String(format: "%.3f", p99))")
} else {
    print("signins_per_second=\(Int((Double(result.signIns) / seconds).rounded()))")
}
print("errors=\(result.errors)")
if let first = result.firstError { print("first_error=\(first)") }
