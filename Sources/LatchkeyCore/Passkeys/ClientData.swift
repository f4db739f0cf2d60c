import AuthCrypto
import FlatJSON

/// `clientDataJSON` as the browser or platform wrote it: what the ceremony was, for which
/// challenge, from which origin. Its exact bytes are hashed into what the authenticator
/// signs, so it is read, never rebuilt.
struct ClientData {
    enum Ceremony: String {
        case registration = "webauthn.create"
        case assertion = "webauthn.get"
    }

    /// At most this long: real ones are a few hundred bytes.
    static let maxBytes = 4096

    let bytes: [UInt8]
    let type: [UInt8]
    let challenge: [UInt8]
    let origin: [UInt8]

    init(_ bytes: [UInt8]) throws(WebAuthnFailure) {
        guard bytes.count <= Self.maxBytes,
              let object = bytes.withUnsafeBufferPointer({ FlatJSONObject(parsing: $0) }),
              let type = object.string("type"), let challenge = object.string("challenge").flatMap(Base64URL.decode),
              let origin = object.string("origin") else { throw .malformed }
        self.bytes = bytes
        self.type = Array(type.utf8)
        self.challenge = challenge
        self.origin = Array(origin.utf8)
    }

    /// The ceremony and origin checked. The challenge is the caller's to look up (and
    /// consume) by `challenge`: an unknown one is not this check's kind of failure.
    func check(_ ceremony: Ceremony, for party: RelyingParty) throws(WebAuthnFailure) {
        guard type.elementsEqual(ceremony.rawValue.utf8) else { throw .type }
        guard party.accepts(origin: origin) else { throw .origin }
    }

    var hash: [UInt8] { SHA256.hash(bytes) }
}
