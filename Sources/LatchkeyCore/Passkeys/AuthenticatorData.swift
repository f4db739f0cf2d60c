import CBOR

/// Authenticator data (WebAuthn §6.1): the RP ID hash, flags, the signature counter, and
/// on registration the attested credential (its id and COSE public key). Read strictly:
/// every length inside the input, nothing left over.
struct AuthenticatorData {
    struct Flags: OptionSet {
        let rawValue: UInt8
        static let userPresent = Flags(rawValue: 0x01)
        static let userVerified = Flags(rawValue: 0x04)
        static let backupEligible = Flags(rawValue: 0x08)
        static let backedUp = Flags(rawValue: 0x10)
        static let attestedCredential = Flags(rawValue: 0x40)
        static let extensions = Flags(rawValue: 0x80)
    }

    struct AttestedCredential {
        let id: [UInt8]
        /// The COSE key exactly as the authenticator encoded it: stored as it is.
        let publicKey: [UInt8]
    }

    /// A credential id is at most 1023 bytes (WebAuthn §6.5.1).
    static let maxCredentialIDLength = 1023

    let bytes: [UInt8]
    let rpIDHash: ArraySlice<UInt8>
    let flags: Flags
    let signCount: UInt32
    let credential: AttestedCredential?

    init(_ bytes: [UInt8]) throws(WebAuthnFailure) {
        guard bytes.count >= 37 else { throw .malformed }
        self.bytes = bytes
        rpIDHash = bytes[0..<32]
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var offset = 37
        if flags.contains(.attestedCredential) {
            // AAGUID (16), then the id's length (2, big-endian), the id, the COSE key.
            guard bytes.count >= offset + 18 else { throw .malformed }
            let length = Int(bytes[offset + 16]) << 8 | Int(bytes[offset + 17])
            offset += 18
            guard length > 0, length <= Self.maxCredentialIDLength, bytes.count >= offset + length else { throw .malformed }
            let id = Array(bytes[offset..<(offset + length)])
            offset += length
            let key = try Self.item(in: bytes, at: offset)
            credential = AttestedCredential(id: id, publicKey: Array(bytes[offset..<(offset + key)]))
            offset += key
        } else {
            credential = nil
        }
        if flags.contains(.extensions) { offset += try Self.item(in: bytes, at: offset) }
        guard offset == bytes.count else { throw .malformed }
    }

    /// The length of the CBOR item at `offset`.
    private static func item(in bytes: [UInt8], at offset: Int) throws(WebAuthnFailure) -> Int {
        do throws(CBORError) {
            return try CBORReader().readPrefix(bytes[offset...]).consumed
        } catch {
            throw .malformed
        }
    }

    /// The RP ID, presence and verification checks every ceremony makes.
    func check(for party: RelyingParty) throws(WebAuthnFailure) {
        guard rpIDHash.elementsEqual(party.idHash) else { throw .rpID }
        guard flags.contains(.userPresent) else { throw .userPresence }
        guard flags.contains(.userVerified) else { throw .userVerification }
    }
}
