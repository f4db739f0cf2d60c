import LatchkeyCore

extension CoreServices {
    /// The bearer check as a route makes it, on a reader of its own.
    func authenticate(authorization: String?) throws -> Authenticated {
        try verifier.verify(authorization: authorization, reader: makeReader())
    }
}
