/// How a session was signed in: the access token's `amr` claim (RFC 8176 values). A
/// session keeps the methods of the sign-in that started it; every refresh repeats them.
public struct SignInMethods: Sendable, Equatable {
    /// In the claim's order; stored space-separated.
    public let values: [String]

    public static let password = SignInMethods(values: ["pwd"])
    public static let passwordAndTOTP = SignInMethods(values: ["pwd", "otp", "mfa"])
    /// A passkey proves possession and the device's user verification: two factors.
    public static let passkey = SignInMethods(values: ["webauthn", "mfa"])
    /// Through a sign-in provider (RFC 8176 `fed`), plus `mfa` when the provider's own
    /// `amr` says it asked for a second factor.
    public static let federated = SignInMethods(values: ["fed"])
    public static let federatedMultiFactor = SignInMethods(values: ["fed", "mfa"])

    /// The usual ones by their stored form, made once: every session read and refresh
    /// reads one, and joining the values again for each comparison cost three strings.
    private static let known = [password, passwordAndTOTP, passkey, federated, federatedMultiFactor].map { (stored: Array($0.stored.utf8), methods: $0) }

    /// The stored form, as written by `stored`, compared as bytes. The usual ones share one
    /// array (the session cache holds one per session). A row the server did not write
    /// reads as the weakest sign-in, a password.
    init(stored: String?) {
        guard let stored, !stored.isEmpty else {
            self = .password
            return
        }
        self = Self.known.first { $0.stored.elementsEqual(stored.utf8) }?.methods
            ?? SignInMethods(values: stored.split(separator: " ").map(String.init))
    }

    public init(values: [String]) {
        self.values = values
    }

    var stored: String { values.joined(separator: " ") }
}
