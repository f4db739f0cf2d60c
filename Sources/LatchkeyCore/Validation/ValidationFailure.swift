/// One input that broke a rule, in the terms the API puts on the wire (`field`, `code`,
/// `detail`, and `reason` where the API defines one), so the single HTTP error mapping
/// copies it across instead of every handler inventing its own wording.
public struct ValidationFailure: Error, Sendable, Equatable {
    /// The request's field name as the client spelled it (`email`, `newPassword`).
    public let field: String
    /// Stable and machine-readable (`INVALID_EMAIL`); clients branch on it.
    public let code: String
    /// A sentence a person can read; it may change wording between releases.
    public let detail: String
    /// A finer machine-readable cause where the API defines one (display names), else nil.
    public let reason: String?

    public init(field: String, code: String, detail: String, reason: String? = nil) {
        self.field = field
        self.code = code
        self.detail = detail
        self.reason = reason
    }
}
