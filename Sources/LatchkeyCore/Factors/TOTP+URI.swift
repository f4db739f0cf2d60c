extension TOTP {
    /// The Key URI an authenticator app reads from a QR code (Google Authenticator's "Key
    /// Uri Format", which every app follows): `otpauth://totp/<issuer>:<account>?secret=…
    /// &issuer=…&algorithm=SHA1&digits=6&period=30`.
    ///
    /// The issuer (the product name) and the account (the email) are percent-encoded
    /// byte by byte from UTF-8, keeping only RFC 3986's unreserved characters: a `:` inside
    /// either would otherwise move the split between them, a `&`, `#` or `?` would end the
    /// label or start a parameter, and a space written as `+` shows up as a `+` in apps.
    /// The issuer is in both places, as the format asks, so old and new apps agree.
    public func otpauthURI(issuer: String, account: String) -> String {
        let issuer = Self.percentEncoded(issuer)
        return "otpauth://totp/\(issuer):\(Self.percentEncoded(account))"
            + "?secret=\(base32Secret)&issuer=\(issuer)&algorithm=SHA1&digits=\(digits)&period=\(Self.period)"
    }

    static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                output.append(byte)
            default:
                output += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
