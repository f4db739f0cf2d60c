import LatchkeyCore

/// The `reason` words of display names, as `GET /v1/display-names/{name}`, a 409
/// `DISPLAY_NAME_TAKEN`, a 400 `DISPLAY_NAME_INVALID` and `latchkey import`'s summary say
/// them (docs/api.md): the one place they are spelled.
public enum DisplayNameReason {
    public static func word(for unavailable: DisplayNameUnavailable) -> String {
        switch unavailable {
        case .invalid(let reason): reason.rawValue
        case .reserved: "RESERVED"
        case .taken: "TAKEN"
        }
    }

    public static func word(for nameless: ImportNamelessReason) -> String {
        switch nameless {
        case .missing: "MISSING"
        case .unavailable(let unavailable): word(for: unavailable)
        }
    }
}
