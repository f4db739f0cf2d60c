/// Why a display name breaks the rules. The raw values are the API's `reason` strings,
/// shared by 400 `DISPLAY_NAME_INVALID` and the availability check, so they never change.
public enum DisplayNameInvalidReason: String, Sendable, CaseIterable {
    case TOO_SHORT
    case TOO_LONG
    case INVALID_CHARACTERS
    case LEADING_OR_TRAILING_PERIOD
    case CONSECUTIVE_PERIODS
}
