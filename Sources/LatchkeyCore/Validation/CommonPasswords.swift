/// The common-password blocklist: the 30,000 most frequent leaked passwords from zxcvbn
/// (resources/common-passwords.txt; source and licence in common-passwords.LICENSE).
/// The list is compiled into the binary (`CommonPasswords+Embedded.swift`, written by
/// scripts/embed-password-blocklist) so the server runs from any directory with no
/// files beside it.
public enum CommonPasswords {
    /// Built on first use; a `static let` is initialised exactly once even when many
    /// requests race to it, and is then read without a lock.
    private static let entries: Set<String> = Set(embeddedList.split(separator: "\n").map(String.init))

    /// Case-insensitive: `Password` is as guessable as `password`.
    public static func contains(_ password: String) -> Bool {
        entries.contains(password.lowercased())
    }

    public static var count: Int { entries.count }
}
