/// The words of every message Latchkey sends, with the product name and public URL
/// filled in. Tokens appear only in the reset link; notices carry none.
public struct MailComposer: Sendable {
    public let productName: String
    /// Links point here: `{publicURL}/reset-password?token=…`.
    public let publicURL: String

    public init(productName: String = "Latchkey", publicURL: String) {
        self.productName = productName
        self.publicURL = publicURL
    }

    func passwordReset(to recipient: String, token: String) -> MailMessage {
        let link = "\(publicURL)/reset-password?token=\(token)"
        return MailMessage(
            recipient: recipient, subject: "Reset your \(productName) password",
            text: """
            Someone asked to reset the password of your \(productName) account.

            To choose a new password, open this link within an hour:
            \(link)

            If it was not you, ignore this message: your password stays as it is.
            """,
            html: Self.html("""
            <p>Someone asked to reset the password of your \(HTMLText.escape(productName)) account.</p>
            <p><a href="\(HTMLText.escape(link))">Choose a new password</a> (the link works for an hour).</p>
            <p>If it was not you, ignore this message: your password stays as it is.</p>
            """)
        )
    }

    func emailVerification(to recipient: String, token: String) -> MailMessage {
        let link = "\(publicURL)/verify-email?token=\(token)"
        return MailMessage(
            recipient: recipient, subject: "Confirm your email for \(productName)",
            text: """
            Please confirm that this address belongs to your \(productName) account by opening \
            this link within a day:
            \(link)

            If you did not ask for this, ignore this message.
            """,
            html: Self.html("""
            <p>Please confirm that this address belongs to your \(HTMLText.escape(productName)) account.</p>
            <p><a href="\(HTMLText.escape(link))">Confirm my email</a> (the link works for a day).</p>
            <p>If you did not ask for this, ignore this message.</p>
            """)
        )
    }

    func emailChangeConfirmation(to recipient: String, token: String) -> MailMessage {
        let link = "\(publicURL)/verify-email?token=\(token)"
        return MailMessage(
            recipient: recipient, subject: "Confirm your new email for \(productName)",
            text: """
            Someone asked to move a \(productName) account to this address. To confirm, open \
            this link within a day:
            \(link)

            If you did not ask for this, ignore this message: nothing changes.
            """,
            html: Self.html("""
            <p>Someone asked to move a \(HTMLText.escape(productName)) account to this address.</p>
            <p><a href="\(HTMLText.escape(link))">Confirm the new address</a> (the link works for a day).</p>
            <p>If you did not ask for this, ignore this message: nothing changes.</p>
            """)
        )
    }

    /// To the old address when a change is asked for: no token, and what to do if it was
    /// not the owner.
    func emailChangeNotice(to recipient: String, newAddress: String) -> MailMessage {
        MailMessage(
            recipient: recipient, subject: "Your \(productName) email is about to change",
            text: """
            Someone asked to move your \(productName) account to \(newAddress). Nothing changes \
            until the link sent there is followed.

            If it was not you, change your password at once, and contact support.
            """,
            html: Self.html("""
            <p>Someone asked to move your \(HTMLText.escape(productName)) account to \(HTMLText.escape(newAddress)). Nothing changes until the link sent there is followed.</p>
            <p>If it was not you, change your password at once, and contact support.</p>
            """)
        )
    }

    /// After a password change or reset: no token, and what to do if it was not the owner.
    func passwordChanged(to recipient: String) -> MailMessage {
        MailMessage(
            recipient: recipient, subject: "Your \(productName) password was changed",
            text: """
            The password of your \(productName) account was just changed, and every other \
            device was signed out.

            If it was not you, reset your password at once from the app's sign-in screen \
            ("Forgot password?"), and contact support.
            """,
            html: Self.html("""
            <p>The password of your \(HTMLText.escape(productName)) account was just changed, and every other device was signed out.</p>
            <p>If it was not you, reset your password at once from the app's sign-in screen (&ldquo;Forgot password?&rdquo;), and contact support.</p>
            """)
        )
    }

    private static func html(_ body: String) -> String {
        "<!doctype html><html><body style=\"font-family: sans-serif; line-height: 1.5\">\n\(body)\n</body></html>"
    }
}

/// Text made safe to put inside HTML elements and attribute values (mail and pages).
public enum HTMLText {
    public static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
