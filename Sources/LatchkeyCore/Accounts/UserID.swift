/// What a user id may be. Latchkey makes 32 lower-case hex digits (`RandomID`), but ids
/// are opaque: an imported account keeps the id it had (a Firebase uid), so everything
/// that takes an id accepts this whole alphabet. It is safe as a path segment (profile
/// pictures live in a folder named by the id) and needs no escaping in a URL or a token.
enum UserID {
    static let maximumLength = 128
    /// Words routes use where an id may stand (`/v1/users/me`, `/v1/presence/stream`): a user
    /// with such an id could not be reached by it.
    static let routeWords: Set<String> = ["me", "stream"]

    /// 1 to 128 of `A-Z a-z 0-9 _ -`, and not a route's word.
    static func isValid(_ text: String) -> Bool {
        (1...maximumLength).contains(text.utf8.count) && !routeWords.contains(text) && text.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}
