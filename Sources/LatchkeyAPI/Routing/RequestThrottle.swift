import HTTPServer
import LatchkeyCore

/// Per-address limits of the throttled endpoints, one budget per endpoint group so name
/// checks while typing cannot use up a signup.
struct RequestThrottle: Sendable {
    enum Group: Sendable { case signup, login, displayNames, mailedLinks }

    let enabled: Bool
    let addresses: ClientAddress
    private let signup: AddressRateLimiter
    private let login: AddressRateLimiter
    private let displayNames: AddressRateLimiter
    private let mailedLinks: AddressRateLimiter

    init(enabled: Bool, perMinute: Int, trustedProxies: [String]) {
        self.enabled = enabled
        addresses = ClientAddress(trustedProxies: trustedProxies)
        signup = AddressRateLimiter(limit: perMinute)
        login = AddressRateLimiter(limit: perMinute)
        displayNames = AddressRateLimiter(limit: perMinute)
        mailedLinks = AddressRateLimiter(limit: perMinute)
    }

    func admit(_ request: Request, to group: Group) throws(Throttled) {
        guard enabled else { return }
        let limiter = switch group {
        case .signup: signup
        case .login: login
        case .displayNames: displayNames
        case .mailedLinks: mailedLinks
        }
        try limiter.admit(addresses.of(request))
    }
}
