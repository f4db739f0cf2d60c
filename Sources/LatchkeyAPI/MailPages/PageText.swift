import FoundationEssentials
import LatchkeyCore

/// The words of the pages behind mailed links. A product team replaces any of them
/// without recompiling, in `{dataDir}/templates/pages.txt`: one `key = text` per line,
/// `#` starts a comment, `{{productName}}` and `{{minimumLength}}` are filled in. A key
/// the file names that does not exist stops the start, so a typo is not silently ignored.
public struct PageText: Sendable {
    public enum Key: String, CaseIterable, Sendable {
        case resetTitle, resetNewPassword, resetHint, resetConfirmPassword, resetSubmit, resetMismatch
        case resetDoneTitle, resetDoneText, resetExpiredTitle, resetExpiredText
        case verifyTitle, verifyText, verifySubmit, verifyDoneTitle, verifyDoneText, verifyChangedTitle, verifyChangedText
        case verifyExpiredTitle, verifyExpiredText, verifyTakenTitle, verifyTakenText
    }

    private var texts: [Key: String]
    private let productName: String

    public static func builtIn(productName: String = "Latchkey") -> PageText {
        PageText(texts: defaults, productName: productName)
    }

    /// The built-in words with the lines of `{directory}/pages.txt`, if it exists, in
    /// their place.
    public static func load(overridesIn directory: String, productName: String) throws -> PageText {
        var loaded = builtIn(productName: productName)
        let path = directory + "/pages.txt"
        guard let data = FileManager.default.contents(atPath: path) else { return loaded }
        guard let content = String(data: data, encoding: .utf8) else { throw PageTextError(description: "\(path) is not UTF-8") }
        for (number, line) in content.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = String(line).trimmingWhitespace()
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let parts = trimmed.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let key = Key(rawValue: String(parts[0]).trimmingWhitespace()) else {
                throw PageTextError(description: "\(path) line \(number + 1): expected `key = text` with a key of \(Key.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            loaded.texts[key] = String(parts[1]).trimmingWhitespace()
        }
        return loaded
    }

    /// The text of `key` with its placeholders filled in, not yet escaped for HTML.
    public subscript(_ key: Key) -> String {
        (texts[key] ?? Self.defaults[key] ?? "")
            .replacing("{{productName}}", with: productName)
            .replacing("{{minimumLength}}", with: String(PasswordRules.minimumLength))
    }

    private static let defaults: [Key: String] = [
        .resetTitle: "Choose a new password",
        .resetNewPassword: "New password",
        .resetHint: "At least {{minimumLength}} characters. A few unrelated words make a good one.",
        .resetConfirmPassword: "Type it again",
        .resetSubmit: "Change password",
        .resetMismatch: "The two passwords differ. Type the same password in both fields.",
        .resetDoneTitle: "Your password has been changed",
        .resetDoneText: "You can sign in with it in the app now. Every device that was signed in has been signed out.",
        .resetExpiredTitle: "This link no longer works",
        .resetExpiredText: "Reset links work once and for an hour, and a newer request replaces older links. Ask for a new one from the app's sign-in screen.",
        .verifyTitle: "Confirm your email",
        .verifyText: "Press the button to confirm that this address is yours and reaches you.",
        .verifySubmit: "Confirm this address",
        .verifyDoneTitle: "Your email is confirmed",
        .verifyDoneText: "Thank you. You can go back to the app.",
        .verifyChangedTitle: "Your new email is confirmed",
        .verifyChangedText: "Your account now uses this address: sign in with it from now on. Every other device that was signed in has been signed out.",
        .verifyExpiredTitle: "This link no longer works",
        .verifyExpiredText: "Verification links work once and for a day, and a newer request replaces older links. Ask for a new one in the app.",
        .verifyTakenTitle: "This address is already in use",
        .verifyTakenText: "Another account registered this address in the meantime, so nothing was changed.",
    ]
}

public struct PageTextError: Error, CustomStringConvertible {
    public let description: String
}
