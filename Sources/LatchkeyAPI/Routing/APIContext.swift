import HTTPServer
import LatchkeyCore

/// What every handler of the API may use: the domain services, the throttles' view of
/// client addresses, the error mapping and the pages' words. Built once at start-up,
/// shared read-only. Readers and callers are handed to the handlers that declare them
/// (see `Routes`).
struct APIContext: Sendable {
    let core: CoreServices
    let throttle: RequestThrottle
    /// For handlers that answer through a sink, outside the engine's own error mapping.
    let errors: ErrorResponder
    /// The words of the pages behind mailed links.
    let pages: PageText
    let maxPictureBytes: Int

    var accounts: AccountService { core.accounts }
    var sessions: SessionService { core.sessions }
    var policy: AccountsPolicy { core.policy }

    /// The address the request comes from, as the throttles count it (see `ClientAddress`).
    func clientAddress(_ request: Request) -> String {
        throttle.addresses.of(request)
    }

    /// At most 512 bytes of it, cut on a character boundary: what a session row keeps is
    /// bounded in bytes, whatever the characters (a `prefix` of `Character`s is not).
    func userAgent(_ request: Request) -> String? {
        request.header("user-agent").map { agent in
            var cut = agent.utf8.prefix(512).count
            let utf8 = Array(agent.utf8)
            // Back off continuation bytes (10xxxxxx) so the cut never splits a scalar.
            while cut < utf8.count, cut > 0, utf8[cut] & 0xC0 == 0x80 { cut -= 1 }
            return String(decoding: utf8[..<cut], as: UTF8.self)
        }
    }
}
