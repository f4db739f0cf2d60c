import AuthCrypto
import FlatJSON
import JSONStream

/// The `credential` member of a request body: a `RegistrationResponseJSON` or an
/// `AuthenticationResponseJSON` (WebAuthn Level 3 §5.1), binary fields base64url without
/// padding. Only the members the ceremonies use are kept; the rest (`transports`,
/// `clientExtensionResults`, `authenticatorAttachment`) are passed over unread. Bounded:
/// the body is at most 64 KiB, a string at most `maximumStringBytes`, nesting at most the
/// reader's depth. Anything that is not the form is `WebAuthnFailure.malformed`.
struct WebAuthnResponseJSON {
    static let maximumStringBytes = 16_384
    /// Member names are protocol tokens: compared as their bytes (`ExactBytes`).
    private static let responseMembers: Set<ExactBytes> = ["clientDataJSON", "attestationObject", "authenticatorData", "signature", "userHandle"]

    /// `rawId` (the credential id), checked to be the same as `id`.
    let credentialID: [UInt8]
    /// The members of `response`, decoded, by name; a `null` one is absent.
    let response: [String: [UInt8]]

    init(body: [UInt8]) throws(WebAuthnFailure) {
        do {
            // The body is in memory already: one piece of its size, not the reader's 64 KiB for files.
            let reader = JSONStreamReader(ByteArraySource(body, pieceSize: max(1, body.count)), chunkSize: max(1, body.count), maximumStringBytes: Self.maximumStringBytes)
            var found: WebAuthnResponseJSON?
            try reader.beginObject()
            while let key = try reader.nextKey() {
                if ExactBytes(key) == "credential", found == nil {
                    found = try Self.readCredential(reader)
                } else {
                    try reader.skipValue()
                }
            }
            try reader.finish()
            guard let found else { throw WebAuthnFailure.malformed }
            self = found
        } catch {
            throw .malformed
        }
    }

    private init(credentialID: [UInt8], response: [String: [UInt8]]) {
        self.credentialID = credentialID
        self.response = response
    }

    private static func readCredential(_ reader: JSONStreamReader) throws -> WebAuthnResponseJSON {
        var strings: [String: String] = [:]
        var response: [String: [UInt8]]?
        try reader.beginObject()
        while let key = try reader.nextKey() {
            switch ExactBytes(key) {
            case "id", "rawId", "type":
                guard try reader.peekKind() == .string, let text = try reader.readScalar().string else { throw WebAuthnFailure.malformed }
                strings[key] = text
            case "response":
                response = try readResponse(reader)
            default:
                try reader.skipValue()
            }
        }
        // A protocol token: compared as bytes.
        guard let type = strings["type"], type.utf8.elementsEqual("public-key".utf8), let response,
              let rawID = strings["rawId"], let id = strings["id"], rawID.utf8.elementsEqual(id.utf8),
              let credentialID = Base64URL.decode(rawID), !credentialID.isEmpty,
              credentialID.count <= AuthenticatorData.maxCredentialIDLength else { throw WebAuthnFailure.malformed }
        return WebAuthnResponseJSON(credentialID: credentialID, response: response)
    }

    private static func readResponse(_ reader: JSONStreamReader) throws -> [String: [UInt8]] {
        var members: [String: [UInt8]] = [:]
        guard try reader.peekKind() == .object else { throw WebAuthnFailure.malformed }
        try reader.beginObject()
        while let key = try reader.nextKey() {
            switch ExactBytes(key) {
            case let name where Self.responseMembers.contains(name):
                switch try reader.readScalar() {
                case .null: continue
                case .string(let text):
                    guard let bytes = Base64URL.decode(text) else { throw WebAuthnFailure.malformed }
                    members[key] = bytes
                default: throw WebAuthnFailure.malformed
                }
            default:
                try reader.skipValue()
            }
        }
        return members
    }

    func member(_ name: String) throws(WebAuthnFailure) -> [UInt8] {
        guard let bytes = response[name] else { throw .malformed }
        return bytes
    }
}
