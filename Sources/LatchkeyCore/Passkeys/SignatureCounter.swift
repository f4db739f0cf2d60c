/// The signature counter rule (WebAuthn §7.2 step 21), decided and nothing touched. An
/// authenticator's counter only moves forward; one that does not, while both the stored
/// and the reported counter are non-zero, may be a clone of the key, and the audit log
/// says so. It never refuses the sign-in: synced passkeys report 0 forever, and a lock-out
/// would hand an attacker with a clone a way to lock the owner out.
struct SignatureCounter {
    /// What is stored after this sign-in: the reported counter when it moved forward, else
    /// the stored one, so every later sign-in of a lagging copy is noticed again.
    let kept: Int64
    let possibleClone: Bool

    init(stored: Int64, reported: Int64) {
        possibleClone = stored != 0 && reported != 0 && reported <= stored
        kept = max(stored, reported)
    }
}
