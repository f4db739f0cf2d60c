import FoundationEssentials

/// The words of every message, as templates a product team can change without
/// recompiling: a file `{dataDir}/templates/<kind>.subject`, `<kind>.txt` or `<kind>.html`
/// replaces the built-in text of that part. `{{name}}` placeholders are filled in
/// (`productName`, `publicURL`, and per kind `link` or `newAddress`); in HTML the values
/// are escaped, in a subject line breaks are dropped.
public struct MailTemplates: Sendable {
    public enum Kind: String, CaseIterable, Sendable {
        case passwordReset = "password-reset"
        case emailVerification = "email-verification"
        case emailChangeConfirmation = "email-change-confirmation"
        case emailChangeNotice = "email-change-notice"
        case passwordChanged = "password-changed"
        case signInMethodChanged = "sign-in-method-changed"
    }

    struct Template: Sendable {
        var subject: String
        var text: String
        var html: String
    }

    private var templates: [Kind: Template]

    /// The built-in texts, with any file in `directory` taking its part's place.
    public static func load(overridesIn directory: String?) -> MailTemplates {
        var loaded = MailTemplates(templates: builtIn)
        guard let directory else { return loaded }
        for kind in Kind.allCases {
            func file(_ suffix: String) -> String? {
                FileManager.default.contents(atPath: "\(directory)/\(kind.rawValue).\(suffix)").flatMap { String(data: $0, encoding: .utf8) }
            }
            if let subject = file("subject") { loaded.templates[kind]?.subject = subject.trimmingWhitespace() }
            if let text = file("txt") { loaded.templates[kind]?.text = text }
            if let html = file("html") { loaded.templates[kind]?.html = html }
        }
        return loaded
    }

    func render(_ kind: Kind, to recipient: String, values: [String: String]) -> MailMessage {
        let template = templates[kind]!  // every kind has a built-in template
        return MailMessage(
            recipient: recipient,
            subject: Self.fill(template.subject, values) { $0.filter { $0 != "\r" && $0 != "\n" } },
            text: Self.fill(template.text, values) { $0 },
            html: Self.fill(template.html, values, HTMLText.escape)
        )
    }

    private static func fill(_ template: String, _ values: [String: String], _ encode: (String) -> String) -> String {
        var result = template
        for (name, value) in values {
            result = result.replacing("{{\(name)}}", with: encode(value))
        }
        return result
    }

    private static let builtIn: [Kind: Template] = [
        .passwordReset: Template(
            subject: "Reset your {{productName}} password",
            text: """
            Someone asked to reset the password of your {{productName}} account.

            To choose a new password, open this link within an hour:
            {{link}}

            If it was not you, ignore this message: your password stays as it is.
            """,
            html: page("""
            <p>Someone asked to reset the password of your {{productName}} account.</p>
            <p><a href="{{link}}">Choose a new password</a> (the link works for an hour).</p>
            <p>If it was not you, ignore this message: your password stays as it is.</p>
            """)
        ),
        .emailVerification: Template(
            subject: "Confirm your email for {{productName}}",
            text: """
            Please confirm that this address belongs to your {{productName}} account by opening this link within a day:
            {{link}}

            If you did not ask for this, ignore this message.
            """,
            html: page("""
            <p>Please confirm that this address belongs to your {{productName}} account.</p>
            <p><a href="{{link}}">Confirm my email</a> (the link works for a day).</p>
            <p>If you did not ask for this, ignore this message.</p>
            """)
        ),
        .emailChangeConfirmation: Template(
            subject: "Confirm your new email for {{productName}}",
            text: """
            Someone asked to move a {{productName}} account to this address. To confirm, open this link within a day:
            {{link}}

            If you did not ask for this, ignore this message: nothing changes.
            """,
            html: page("""
            <p>Someone asked to move a {{productName}} account to this address.</p>
            <p><a href="{{link}}">Confirm the new address</a> (the link works for a day).</p>
            <p>If you did not ask for this, ignore this message: nothing changes.</p>
            """)
        ),
        .emailChangeNotice: Template(
            subject: "Your {{productName}} email is about to change",
            text: """
            Someone asked to move your {{productName}} account to {{newAddress}}. Nothing changes until the link sent there is followed.

            If it was not you, change your password at once, and contact support.
            """,
            html: page("""
            <p>Someone asked to move your {{productName}} account to {{newAddress}}. Nothing changes until the link sent there is followed.</p>
            <p>If it was not you, change your password at once, and contact support.</p>
            """)
        ),
        .passwordChanged: Template(
            subject: "Your {{productName}} password was changed",
            text: """
            The password of your {{productName}} account was just changed, and every other device was signed out.

            If it was not you, reset your password at once from the app's sign-in screen ("Forgot password?"), and contact support.
            """,
            html: page("""
            <p>The password of your {{productName}} account was just changed, and every other device was signed out.</p>
            <p>If it was not you, reset your password at once from the app's sign-in screen (&ldquo;Forgot password?&rdquo;), and contact support.</p>
            """)
        ),
        .signInMethodChanged: Template(
            subject: "The sign-in methods of your {{productName}} account changed",
            text: """
            {{change}}

            If it was not you, change your password at once, review your passkeys and two-factor settings in the app, and contact support.
            """,
            html: page("""
            <p>{{change}}</p>
            <p>If it was not you, change your password at once, review your passkeys and two-factor settings in the app, and contact support.</p>
            """)
        ),
    ]

    private static func page(_ body: String) -> String {
        "<!doctype html><html><body style=\"font-family: sans-serif; line-height: 1.5\">\n\(body)\n</body></html>"
    }
}
