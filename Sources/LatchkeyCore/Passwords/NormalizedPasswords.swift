import AuthCrypto

/// Hashing and checking passwords in their NFKC form (`PasswordNormalization`).
extension PasswordHasher {
    func hashNormalized(_ password: String) -> String {
        hash(PasswordNormalization.nfkc(password))
    }

    /// The NFKC form first; a hash stored before normalisation (or imported) is also
    /// tried with the password as typed, and then wants re-making from the NFKC form.
    /// ASCII passwords are their own NFKC, so only a wrong non-ASCII password costs two
    /// hashes.
    func verifyNormalized(_ password: String, against stored: String) -> (matched: Bool, rehash: Bool) {
        let normalized = PasswordNormalization.nfkc(password)
        if verify(normalized, against: stored) { return (true, needsRehash(stored)) }
        guard !normalized.unicodeScalars.elementsEqual(password.unicodeScalars), verify(password, against: stored) else {
            return (false, false)
        }
        return (true, true)
    }
}
