import Glibc

/// A string from the network (a token, an id, a JSON member name) as a dictionary key by
/// its bytes. `String`'s own `==` and hashing follow Unicode canonical equivalence, under
/// which a token with U+212A KELVIN SIGN in place of a `K` would find the entry of the real
/// token and skip the signature check that would refuse it, one imported user id would
/// find another's, and a member name spelt with other code points would be read as the
/// member it only looks like. Here because every module that reads such strings can import
/// it, and JSON objects (`FlatJSONObject`) key their members by it.
public struct ExactBytes: Hashable, Sendable, ExpressibleByStringLiteral {
    public let text: String

    public init(_ text: String) {
        self.text = text
    }

    public init(stringLiteral text: String) {
        self.text = text
    }

    /// On every cache hit: the lengths, then the contiguous bytes. A generic walk of the
    /// two `UTF8View`s cost some 90 instructions a byte, a quarter of GET /v1/users/me.
    @inlinable
    public static func == (left: ExactBytes, right: ExactBytes) -> Bool {
        guard left.text.utf8.count == right.text.utf8.count else { return false }
        var (left, right) = (left.text, right.text)
        return left.withUTF8 { left in
            right.withUTF8 { right in
                left.isEmpty || memcmp(left.baseAddress!, right.baseAddress!, left.count) == 0
            }
        }
    }

    /// The length and at most the last 32 bytes: `==` still compares every byte. A JWT's
    /// last bytes are its signature, an id or a member name is shorter than that, and only
    /// a verified token is ever stored, so the keys a table holds differ there; hashing all
    /// of a 250-byte token was a twentieth of GET /v1/users/me.
    @inlinable
    public func hash(into hasher: inout Hasher) {
        var text = text
        text.withUTF8 { bytes in
            hasher.combine(bytes.count)
            hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes.suffix(Self.hashedSuffix))))
        }
    }

    public static let hashedSuffix = 32
}
