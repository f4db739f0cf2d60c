/// The API's display-name rule (Instagram style): 3–30 of `A–Z a–z 0–9 _ .`, no period
/// at either end, no two periods in a row. The name is checked as sent, not trimmed: a
/// space is an invalid character, not something to fix silently. Whether a name is
/// reserved or taken is not decided here (see `ReservedDisplayNames` and the store).
public enum DisplayNameRules {
    public static let field = "displayName"
    public static let minimumLength = 3
    public static let maximumLength = 30

    /// When a name breaks several rules, one reason wins, in this order:
    ///
    /// 1. `INVALID_CHARACTERS`: no edit other than removing the character fixes it, and
    ///    removing characters may fix the length too (`Ada Lovelace Countess of Lovelace`
    ///    is too long only because of its spaces), never the other way round.
    /// 2. `CONSECUTIVE_PERIODS`, 3. `LEADING_OR_TRAILING_PERIOD`, 4. `TOO_LONG`: typing
    ///    on cannot fix these. `..` ranks first because `ada..` would otherwise be reported
    ///    as a trailing period that the next letter seems to fix.
    /// 5. `TOO_SHORT` last: the availability check runs as the user types, and every
    ///    name is too short at first; a reason that more typing will fix should not hide
    ///    one that it will not (`.` is a leading period, not merely short).
    ///
    /// Length is only measured once every character is ASCII, so it is never ambiguous
    /// whether it counts bytes, scalars or `Character`s.
    public static func check(_ name: String) -> DisplayNameVerdict {
        let bytes = name.utf8
        let period = UInt8(ascii: ".")
        if !bytes.allSatisfy(isAllowed) {
            return .invalid(.INVALID_CHARACTERS)
        }
        if zip(bytes, bytes.dropFirst()).contains(where: { $0 == period && $1 == period }) {
            return .invalid(.CONSECUTIVE_PERIODS)
        }
        if bytes.first == period || bytes.last == period {
            return .invalid(.LEADING_OR_TRAILING_PERIOD)
        }
        if bytes.count > maximumLength {
            return .invalid(.TOO_LONG)
        }
        if bytes.count < minimumLength {
            return .invalid(.TOO_SHORT)
        }
        return .valid
    }

    /// The claim key behind case-insensitive uniqueness: `Ada.L` and `ada.l` share one.
    /// The user's own spelling is stored beside it and is what the API returns.
    public static func key(_ name: String) -> String {
        name.lowercased()
    }

    /// `[A-Za-z0-9_.]`; every byte of a multi-byte UTF-8 sequence is outside it.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."):
            true
        default:
            false
        }
    }
}
