// What one TOTP check costs beside one password hash, in this process, for bench/run
// (issue target: a check costs no more than 1/100 of a hash). A check is what the server
// does per submitted code: open the sealed secret (AES-256-GCM under the outbox key) and
// compare the code against the three steps of the window. The hash is PBKDF2-SHA256 at
// the default iterations, as a login verifies it. Prints key=value lines.
//
//   latchkey-microbench [--hashes N] [--checks N]
import AuthCrypto
import FoundationEssentials
import LatchkeyCore

func argument(_ name: String, default value: Int) -> Int {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count, let parsed = Int(arguments[index + 1]), parsed > 0 else {
        return value
    }
    return parsed
}

/// Seconds `body` takes, run `count` times, per run; the fastest of three rounds, as the
/// machine's speed drifts.
func secondsEach(_ count: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<3 {
        let clock = ContinuousClock()
        let elapsed = clock.measure { for _ in 0..<count { body() } }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        best = min(best, seconds / Double(count))
    }
    return best
}

let hashes = argument("--hashes", default: 3)
let checks = argument("--checks", default: 20_000)
let key = OutboxKey(secret: SecureRandom.bytes(32))!
let userID = "0123456789abcdef0123456789abcdef"
let sealed = TOTP.generate().sealed(for: userID, with: key)
let now = Int64(Date().timeIntervalSince1970)
let submitted = Array("123456".utf8)
var verdicts = 0
let check = secondsEach(checks) {
    guard let factor = TOTP.opened(sealed, for: userID, with: key) else { fatalError("the sealed secret did not open") }
    if factor.check(submitted, at: now, lastAcceptedStep: nil) != .malformed { verdicts += 1 }
}
let hasher = PasswordHasher()  // the default iterations, as `passwordIterations` defaults
var hashed = 0
let hash = secondsEach(hashes) { hashed += hasher.hash("correct horse battery staple").utf8.count }
/// `value` with `places` decimals (Foundation's `String(format:)` is not in FoundationEssentials).
func decimal(_ value: Double, _ places: Int) -> String {
    let scale = (0..<places).reduce(1.0) { product, _ in product * 10 }
    let scaled = Int((value * scale).rounded())
    let fraction = String(scaled % Int(scale))
    return places == 0 ? String(scaled) : "\(scaled / Int(scale)).\(String(repeating: "0", count: places - fraction.count))\(fraction)"
}

print("totp_check_us=\(decimal(check * 1e6, 2))")
print("password_hash_ms=\(decimal(hash * 1e3, 1))")
print("password_iterations=\(PasswordHasher.defaultIterations)")
print("check_to_hash=\(decimal(check / hash, 6))")
print("checks_run=\(verdicts) hashes_run=\(hashed > 0 ? hashes * 3 : 0)")
