/// A hand-written matcher for `[A-Z0-9a-z._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}` anchored at
/// both ends. It walks the UTF-8 bytes once, so it is linear on any input (no regex
/// backtracking on a 64 KiB body), needs no Foundation regex engine, and refuses every
/// non-ASCII character because no multi-byte UTF-8 byte is in any of its classes.
enum EmailPattern {
    static func matches(_ candidate: String) -> Bool {
        let bytes = Array(candidate.utf8)
        // The local class has no `@` and the domain class has none either, so a match has
        // exactly one `@`, and it splits the address.
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return false }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        guard !local.isEmpty, local.allSatisfy(isLocalByte) else { return false }
        guard domain.allSatisfy(isDomainByte) else { return false }
        // The TLD has no `.`, so the `\.` before it is the domain's last dot; everything
        // before that dot is the `[A-Za-z0-9.-]+` part and must not be empty.
        guard let dot = domain.lastIndex(of: UInt8(ascii: ".")) else { return false }
        let host = domain[..<dot]
        let tld = domain[(dot + 1)...]
        return !host.isEmpty && tld.count >= 2 && tld.allSatisfy(isLetter)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `[A-Z0-9a-z._%+-]`
    private static func isLocalByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "._%+-".utf8.contains(byte)
    }

    /// `[A-Za-z0-9.-]`
    private static func isDomainByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
    }
}
