/// A hand-written matcher for the contract's address shape, anchored at both ends:
///
///     ^[A-Za-z0-9_%+-]+(\.[A-Za-z0-9_%+-]+)*@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$
///
/// a local part that neither starts nor ends with `.` and has no `..`, then a domain of
/// labels joined by single dots, none empty or starting or ending with `-`, the last one
/// two or more letters. (`EmailPattern.regularExpression` is the same text, for the
/// OpenAPI document; a test holds the two together.) It walks the UTF-8 bytes once, so it
/// is linear on any input and needs no regex engine, and refuses every non-ASCII
/// character because no multi-byte UTF-8 byte is in any of its classes.
enum EmailPattern {
    static let regularExpression = #"^[A-Za-z0-9_%+-]+(\.[A-Za-z0-9_%+-]+)*@([A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$"#

    static func matches(_ candidate: String) -> Bool {
        let bytes = Array(candidate.utf8)
        // Neither part's class has `@`, so a match has exactly one, and it splits them.
        guard let at = bytes.firstIndex(of: UInt8(ascii: "@")) else { return false }
        let local = bytes[..<at].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        let labels = bytes[(at + 1)...].split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard local.allSatisfy({ !$0.isEmpty && $0.allSatisfy(isLocalByte) }) else { return false }
        guard labels.count >= 2, let top = labels.last, top.count >= 2, top.allSatisfy(isLetter) else { return false }
        return labels.dropLast().allSatisfy { label in
            guard let first = label.first, let last = label.last else { return false }
            return first != UInt8(ascii: "-") && last != UInt8(ascii: "-") && label.allSatisfy(isDomainByte)
        }
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// `[A-Za-z0-9_%+-]`: the local part's characters besides its dots.
    private static func isLocalByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "_%+-".utf8.contains(byte)
    }

    /// `[A-Za-z0-9-]`: a domain label's characters.
    private static func isDomainByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || byte == UInt8(ascii: "-")
    }
}
