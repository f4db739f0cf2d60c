/// Why a display name breaks the rules. The raw values are the API's `reason` strings,
/// shared by 400 `DISPLAY_NAME_INVALID` and the availability check, so they never change.
public enum DisplayNameInvalidReason: String, Sendable, CaseIterable {
    case TOO_SHORT
    case TOO_LONG
    case INVALID_CHARACTERS
    case LEADING_OR_TRAILING_PERIOD
    case CONSECUTIVE_PERIODS

    /// The sentence for `detail`.
    public var detail: String {
        switch self {
        case .TOO_SHORT:
            "Display names need at least \(DisplayNameRules.minimumLength) characters."
        case .TOO_LONG:
            "Display names can have at most \(DisplayNameRules.maximumLength) characters."
        case .INVALID_CHARACTERS:
            "Display names can contain only letters A–Z, digits, underscores and periods."
        case .LEADING_OR_TRAILING_PERIOD:
            "Display names cannot start or end with a period."
        case .CONSECUTIVE_PERIODS:
            "Display names cannot contain two periods in a row."
        }
    }
}
