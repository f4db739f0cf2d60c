/// Every failed field of one request, so a client fixes its whole form after one round
/// trip instead of discovering the rules one 400 at a time. The API answers it with 400,
/// `field` and `code` from the first failure and all of them in `errors`.
public struct ValidationErrors: Error, Sendable, Equatable {
    /// In the order the fields were checked; never empty.
    public let failures: [ValidationFailure]

    public init(_ failures: [ValidationFailure]) {
        // An error that lists no failures would map to a 400 that names no field: that is
        // a bug in the caller, not a client's mistake.
        precondition(!failures.isEmpty, "ValidationErrors needs at least one failure")
        self.failures = failures
    }

    /// Nil when every check passed, so a handler runs its checks and throws in two lines:
    /// `if let errors = ValidationErrors(collecting: [a, b, c]) { throw errors }`.
    public init?(collecting results: [ValidationFailure?]) {
        let failures = results.compactMap { $0 }
        if failures.isEmpty { return nil }
        self.failures = failures
    }

    /// The failure the API names in its top-level `field` and `code`.
    public var first: ValidationFailure { failures[0] }
}
