import AuthCrypto

/// A time-based one-time password generator and checker (RFC 6238) as every authenticator
/// app speaks it: HMAC-SHA-1, 6 digits, 30-second steps counted from the Unix epoch.
/// Pure: the time comes in as a parameter (tests use the RFC's own instants), and the
/// caller keeps the last step it accepted, which `check` needs to refuse a replay.
public struct TOTP: Sendable {
    /// 160 bits, the length RFC 4226 §4 recommends and the HMAC-SHA-1 output size.
    public static let secretLength = 20
    public static let period: Int64 = 30
    public static let defaultDigits = 6
    /// Steps accepted on each side of the current one (RFC 6238 §5.2): a phone clock a
    /// little off, or a code typed as it rolled over, still works.
    public static let drift: Int64 = 1

    let secret: [UInt8]
    /// 6 on the wire; a parameter only so RFC 6238 Appendix B's 8-digit vectors can be checked.
    let digits: Int

    /// A TOTP over an existing secret (one opened from the database, say).
    public init(secret: [UInt8]) {
        self.init(secret: secret, digits: Self.defaultDigits)
    }

    init(secret: [UInt8], digits: Int) {
        // A wrong count is a bug here, not input: the wire always has 6.
        precondition((6...8).contains(digits), "TOTP: 6 to 8 digits")
        precondition(!secret.isEmpty, "TOTP: an empty secret")
        self.secret = secret
        self.digits = digits
    }

    /// A fresh factor: 20 bytes from OpenSSL's CSPRNG.
    public static func generate() -> TOTP {
        TOTP(secret: SecureRandom.bytes(secretLength))
    }

    /// What the user types into an authenticator app when the QR code will not scan.
    public var base32Secret: String { Base32.encode(secret) }

    /// The step `time` falls in; times before 1970 fall in negative steps, which no code opens.
    public static func step(at time: Int64) -> Int64 {
        time >= 0 ? time / period : (time + 1) / period - 1
    }

    /// The code an app shows at `time` (Unix seconds, not before 1970).
    public func code(at time: Int64) -> String {
        precondition(time >= 0, "TOTP: a time before 1970")
        return String(decoding: code(forStep: Self.step(at: time)), as: UTF8.self)
    }

    /// The code of one step as ASCII digits (RFC 4226 §5.3, dynamic truncation).
    func code(forStep step: Int64) -> [UInt8] {
        let counter = UInt64(step)
        let message = (0..<8).map { UInt8(truncatingIfNeeded: counter >> (56 - 8 * UInt64($0))) }
        let mac = HMACSHA1.authenticationCode(key: secret, message: message)
        let offset = Int(mac[HMACSHA1.codeLength - 1] & 0x0F)
        let truncated = UInt32(mac[offset] & 0x7F) << 24 | UInt32(mac[offset + 1]) << 16
            | UInt32(mac[offset + 2]) << 8 | UInt32(mac[offset + 3])
        var value = truncated
        var code = [UInt8](repeating: UInt8(ascii: "0"), count: digits)
        for index in stride(from: digits - 1, through: 0, by: -1) {
            code[index] = UInt8(ascii: "0") + UInt8(value % 10)
            value /= 10
        }
        return code
    }
}

extension TOTP: CustomStringConvertible {
    /// A TOTP interpolated into a log line or an error shows no secret.
    public var description: String { "TOTP(\(digits) digits, secret redacted)" }
}
