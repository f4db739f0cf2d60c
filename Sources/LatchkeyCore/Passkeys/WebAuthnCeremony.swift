import AuthCrypto
import CBOR

/// The relying party's checks of WebAuthn Level 3 (§7.1 registration, §7.2 assertion),
/// once the challenge the client data names has been found and consumed: client data,
/// authenticator data, then the signature or attestation. Each refusal is its own
/// `WebAuthnFailure`, told in that order.
enum WebAuthnCeremony {
    /// What registration keeps of a new credential.
    struct NewCredential {
        let id: [UInt8]
        /// The COSE key as the authenticator encoded it.
        let publicKey: [UInt8]
        let algorithm: COSEAlgorithm
        let signCount: UInt32
        let backedUp: Bool
    }

    /// What a verified assertion tells: the counter it reports and whether it is synced.
    struct Assertion {
        let signCount: UInt32
        let backedUp: Bool
    }

    /// An attestation object (CBOR `{fmt, attStmt, authData}`) with its client data. `none`
    /// is accepted; `packed` is verified, self attestation with the new key and full
    /// attestation with its certificate's key (no chain: attestation was not asked for).
    static func register(
        attestationObject: [UInt8], clientData: ClientData, for party: RelyingParty
    ) throws(WebAuthnFailure) -> NewCredential {
        try clientData.check(.registration, for: party)
        guard let object = (try? CBORReader().read(attestationObject))?.map, let format = object["fmt"]?.text, let statement = object["attStmt"]?.map,
              let authenticatorBytes = object["authData"]?.bytes else { throw .malformed }
        let data = try AuthenticatorData(authenticatorBytes)
        try data.check(for: party)
        guard let credential = data.credential else { throw .malformed }
        let key = try publicKey(credential.publicKey)

        switch format {
        case "none":
            guard statement.count == 0 else { throw .attestation }
        case "packed":
            try checkPacked(statement, signed: data.bytes + clientData.hash, credentialKey: key)
        default:
            throw .attestation
        }
        return NewCredential(
            id: credential.id, publicKey: credential.publicKey, algorithm: key.algorithm, signCount: data.signCount,
            backedUp: data.flags.contains(.backedUp)
        )
    }

    /// An assertion of a stored credential: its signature over authenticator data ‖
    /// SHA-256 of the client data, with the key registration kept.
    static func authenticate(
        authenticatorData: [UInt8], clientData: ClientData, signature: [UInt8], storedKey: [UInt8], keys: PasskeyKeys, for party: RelyingParty
    ) throws(WebAuthnFailure) -> Assertion {
        try clientData.check(.assertion, for: party)
        let data = try AuthenticatorData(authenticatorData)
        try data.check(for: party)
        let key = try keys.key(storedKey)
        do throws(SignatureError) {
            try key.verify(signature: signature, over: data.bytes + clientData.hash)
        } catch {
            throw .signature
        }
        return Assertion(signCount: data.signCount, backedUp: data.flags.contains(.backedUp))
    }

    static func publicKey(_ encoded: [UInt8]) throws(WebAuthnFailure) -> COSEKey {
        do throws(COSEKeyError) {
            return try COSEKey(encoded: encoded)
        } catch .unsupportedKeyType, .unsupportedAlgorithm, .unsupportedCurve, .rsaModulusTooShort, .rsaModulusTooLong {
            throw .algorithm
        } catch {
            throw .malformed
        }
    }

    /// `{alg, sig}` (self attestation: the new key signs) or `{alg, sig, x5c}` (the first
    /// certificate's key signs).
    private static func checkPacked(_ statement: CBORMap, signed message: [UInt8], credentialKey: COSEKey) throws(WebAuthnFailure) {
        guard let label = statement["alg"]?.integer, let algorithm = COSEAlgorithm(rawValue: label),
              let signature = statement["sig"]?.bytes else { throw .attestation }
        if let chain = statement["x5c"] {
            guard let der = chain.array?.first?.bytes, let certificate = try? CertificatePublicKey(der: der),
                  (try? certificate.verify(signature: signature, over: message, algorithm: algorithm)) != nil else { throw .attestation }
        } else {
            guard algorithm == credentialKey.algorithm,
                  (try? credentialKey.verify(signature: signature, over: message)) != nil else { throw .attestation }
        }
    }
}
