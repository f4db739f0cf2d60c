import LatchkeyCore

/// The passkey area's response bodies: the Passkey object, the list, and the WebAuthn
/// Level 3 option forms (`PublicKeyCredentialCreationOptionsJSON`,
/// `PublicKeyCredentialRequestOptionsJSON`) that browsers read with
/// `PublicKeyCredential.parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON`.
enum PasskeyJSON {
    static func passkey(_ passkey: Passkey) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("id", passkey.id)
        json.field("name", passkey.name)
        json.field("createdAt", RFC3339.format(passkey.createdAt))
        json.field("lastUsedAt", passkey.lastUsedAt.map(RFC3339.format))
        json.field("backedUp", passkey.backedUp)
        return json.finish()
    }

    static func list(_ passkeys: [Passkey]) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("passkeys", jsonArray: passkeys.map(passkey))
        return json.finish()
    }

    static func creationOptions(_ options: CreationOptions) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("challenge", options.encodedChallenge)
        json.field("rp") { party in
            party.field("id", options.party.id)
            party.field("name", options.party.name)
        }
        json.field("user") { user in
            user.field("id", options.encodedUserHandle)
            user.field("name", options.userName)
            user.field("displayName", options.userDisplayName)
        }
        json.field("pubKeyCredParams", jsonArray: CreationOptions.algorithms.map { algorithm in
            var parameter = JSONObjectWriter()
            parameter.field("type", "public-key")
            parameter.field("alg", algorithm)
            return parameter.finish()
        })
        json.field("timeout", Int64(300_000))
        json.field("excludeCredentials", jsonArray: options.encodedExcludedCredentials.map(credentialDescriptor))
        json.field("authenticatorSelection") { selection in
            selection.field("residentKey", "required")
            selection.field("requireResidentKey", true)
            selection.field("userVerification", "required")
        }
        json.field("attestation", "none")
        return json.finish()
    }

    static func requestOptions(_ options: RequestOptions) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("challenge", options.encodedChallenge)
        json.field("timeout", Int64(300_000))
        json.field("rpId", options.rpID)
        json.field("allowCredentials", jsonArray: [])
        json.field("userVerification", "required")
        return json.finish()
    }

    private static func credentialDescriptor(_ id: String) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("type", "public-key")
        json.field("id", id)
        return json.finish()
    }
}
