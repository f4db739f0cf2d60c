/// The name a passkey's owner gives it ("iPhone", "YubiKey 5C"): any text, so any
/// language, but 1 to 64 characters once trimmed, and no control characters, which would
/// let a name rewrite the lines of the notice mail or the list it is shown in.
enum PasskeyName {
    static let maximumLength = 64
    /// What a passkey registered without a name is called until it is renamed.
    static let unnamed = "Passkey"

    static func validated(_ raw: String) throws(PasskeyError) -> String {
        let name = raw.trimmingWhitespace()
        guard !name.isEmpty else { throw .nameInvalid("A passkey's name needs at least 1 character.") }
        guard name.count <= maximumLength else { throw .nameInvalid("A passkey's name can have at most \(maximumLength) characters.") }
        let forbidden = name.unicodeScalars.contains { scalar in
            switch scalar.properties.generalCategory {
            case .control, .lineSeparator, .paragraphSeparator: true
            default: false
            }
        }
        guard !forbidden else { throw .nameInvalid("A passkey's name cannot contain control characters or line breaks.") }
        return name
    }
}
