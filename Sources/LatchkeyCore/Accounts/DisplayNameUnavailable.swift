/// Why a display name cannot be had; `LatchkeyAPI` says it on the wire as a `reason`.
public enum DisplayNameUnavailable: Sendable, Equatable {
    /// The rules refuse it.
    case invalid(DisplayNameInvalidReason)
    /// On the operator's reserved list.
    case reserved
    /// Someone holds it.
    case taken
}
