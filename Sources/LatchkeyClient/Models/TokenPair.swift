import Foundation

/// The answer of everything that signs a user in (signup, login, refresh, password
/// change). Internal: apps see the `User`; the tokens go to the token store.
struct TokenPair: Decodable, Sendable {
    let accessToken: String
    let tokenType: String
    /// Seconds the access token lives, counted from the answer's arrival on this device,
    /// which sidesteps any difference between the device's clock and the server's.
    let expiresIn: Int
    let refreshToken: String
    let user: User
    /// With the pairs a password produced (signup, login, password change): kept across
    /// sign-out by the token store and sent with later logins (`TokenStore.saveDeviceToken`).
    let deviceToken: String?
}
