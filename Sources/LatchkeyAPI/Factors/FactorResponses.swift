import LatchkeyCore

/// The second factor's response bodies (docs/api.md, "Second factor (TOTP)").
enum FactorResponses {
    /// The login's answer for an account with a live factor: no session yet.
    static func challenge(_ challenge: MFAChallenge) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("mfaRequired", true)
        json.field("mfaToken", challenge.token)
        json.field("methods", strings: MFAChallenge.methods)
        json.field("expiresIn", challenge.expiresIn)
        return json.finish()
    }

    static func status(_ status: SecondFactorStatus) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("totp") { totp in
            totp.field("enabled", status.enabled)
            totp.field("createdAt", status.enabledAt.map(RFC3339.format))
        }
        json.field("recoveryCodesLeft", Int64(status.recoveryCodesLeft))
        return json.finish()
    }

    static func enrolment(_ enrolment: TOTPEnrolment) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("secret", enrolment.secret)
        json.field("otpauthURI", enrolment.otpauthURI)
        return json.finish()
    }

    /// Shown this once: only their hashes are kept.
    static func recoveryCodes(_ codes: RecoveryCodes) -> [UInt8] {
        var json = JSONObjectWriter()
        json.field("recoveryCodes", strings: codes.codes)
        return json.finish()
    }
}
