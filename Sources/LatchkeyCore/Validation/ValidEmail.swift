/// An email address that passed `EmailRules`. Holding one proves the check ran, so the
/// store never sees an address nobody validated.
public struct ValidEmail: Sendable, Equatable {
    /// Trimmed but otherwise as typed: mail goes out to, and the user sees, their own spelling.
    public let address: String
    /// Lower-cased, for the uniqueness index: `Ada@Example.com` and `ada@example.com`
    /// are one account.
    public let key: String

    /// Internal: only `EmailRules.normalize` makes one, so every value has passed the rules.
    init(address: String) {
        self.address = address
        self.key = address.lowercased()
    }
}
