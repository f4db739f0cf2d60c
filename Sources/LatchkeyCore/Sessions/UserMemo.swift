import Synchronization

/// Bytes the API made from one version of a user (the `GET /v1/users/me` body), kept with
/// that user's copy in `SessionCache`, so a warm request sends them again instead of
/// writing the JSON anew (a seventh of the request's instructions). Made by the first
/// request that wants them; gone with that version of the user, whatever ends it (an
/// account event's drop, eviction, a read that brings the user changed). Nothing else may
/// go in: the bytes must follow from the user alone. About 300 bytes a user who asked.
public final class UserMemo: Sendable {
    private final class Bytes: Sendable {
        let value: [UInt8]

        init(_ value: [UInt8]) {
            self.value = value
        }
    }

    private let body = AtomicLazyReference<Bytes>()

    init() {}

    /// The body made from this version of the user: `make`'s, the first time (two loops
    /// racing may both make it; the first one stored is kept, and they are equal).
    public func body(orMake make: () -> [UInt8]) -> [UInt8] {
        if let made = body.load() { return made.value }
        return body.storeIfNil(Bytes(make())).value
    }
}
