/// The outcome of `DisplayNameRules.check`: a value rather than a thrown error, because
/// the availability endpoint reports an invalid name as an ordinary 200 answer while
/// signup and `PATCH /v1/users/me` turn it into a 400.
public enum DisplayNameVerdict: Sendable, Equatable {
    case valid
    case invalid(DisplayNameInvalidReason)

    public var reason: DisplayNameInvalidReason? {
        switch self {
        case .valid: nil
        case .invalid(let reason): reason
        }
    }

    /// The 400 `DISPLAY_NAME_INVALID` failure for this verdict, or nil when it is valid.
    public var failure: ValidationFailure? {
        reason.map { reason in
            ValidationFailure(field: DisplayNameRules.field, rule: .displayName(reason))
        }
    }
}
