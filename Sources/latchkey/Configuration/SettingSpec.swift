import LatchkeyCore
import Logging

/// One row of the configuration table: its names in the file, the environment and on the
/// command line, and how its text becomes a value.
struct SettingSpec: Sendable {
    let key: String
    let apply: @Sendable (inout Settings, String) throws(SettingValueError) -> Void
    /// For a duration: the value below which the log warns at start-up. Any value from
    /// 1 s is accepted, so tests (and curious operators) can watch a token expire or a
    /// session end, but a production server with such a value is probably a mistake.
    var unusuallyShort: (value: KeyPath<Settings, Int> & Sendable, below: Int)? = nil
    /// The words of the key where the camel-case rule would split them otherwise
    /// (`webAuthnRPID` is webauthn, RP, ID: `LATCHKEY_WEBAUTHN_RP_ID`, as the name is known).
    var spelledWords: [String]? = nil

    /// `accessTokenTTL` → `LATCHKEY_ACCESS_TOKEN_TTL`.
    var environmentName: String { "LATCHKEY_" + words.map { $0.uppercased() }.joined(separator: "_") }

    /// `accessTokenTTL` → `--access-token-ttl`.
    var flagName: String { "--" + words.map { $0.lowercased() }.joined(separator: "-") }

    /// The camel-case words of the key; a run of capitals (URL, TTL) is one word, and the
    /// last capital of a run starts the next word when lower case follows (`smtpCAFile` →
    /// smtp, CA, File), unless that is a plural's `s` ending the key (`appleAppIDs` → apple,
    /// app, IDs).
    private var words: [String] {
        if let spelledWords { return spelledWords }
        var words: [String] = []
        let characters = Array(key)
        for (index, character) in characters.enumerated() {
            let previous = index > 0 ? characters[index - 1] : nil
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let pluralEnd = next == "s" && index + 2 == characters.count
            let startsWord = character.isUppercase
                && (previous?.isLowercase == true || previous?.isUppercase == true && next?.isLowercase == true && !pluralEnd)
            if words.isEmpty || startsWord { words.append("") }
            words[words.count - 1].append(character)
        }
        return words
    }
}

/// Why a value was refused; the loader adds the setting's name and source.
struct SettingValueError: Error {
    let expected: String
}

extension SettingSpec {
    static func integer(_ key: String, _ range: ClosedRange<Int>, _ path: WritableKeyPath<Settings, Int> & Sendable) -> SettingSpec {
        SettingSpec(key: key) { settings, text throws(SettingValueError) in
            guard let value = Int(text.trimmingWhitespace()), range.contains(value) else {
                throw SettingValueError(expected: "a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            settings[keyPath: path] = value
        }
    }

    /// Seconds, from 1 up to `upTo`; below `usually` it is accepted with a warning.
    static func duration(_ key: String, upTo maximum: Int, usually: Int, _ path: WritableKeyPath<Settings, Int> & Sendable) -> SettingSpec {
        var spec = integer(key, 1...maximum, path)
        spec.unusuallyShort = (path, usually)
        return spec
    }

    static func string(_ key: String, _ path: WritableKeyPath<Settings, String> & Sendable) -> SettingSpec {
        SettingSpec(key: key) { settings, text throws(SettingValueError) in
            guard !text.isEmpty else { throw SettingValueError(expected: "a non-empty text") }
            settings[keyPath: path] = text
        }
    }

    static func optionalString(_ key: String, _ path: WritableKeyPath<Settings, String?> & Sendable, validate: @escaping @Sendable (String) -> String? = { _ in nil }) -> SettingSpec {
        SettingSpec(key: key) { settings, text throws(SettingValueError) in
            guard !text.isEmpty else {
                settings[keyPath: path] = nil
                return
            }
            if let problem = validate(text) { throw SettingValueError(expected: problem) }
            settings[keyPath: path] = text
        }
    }

    static func boolean(_ key: String, _ path: WritableKeyPath<Settings, Bool> & Sendable) -> SettingSpec {
        flag(key) { settings, value in settings[keyPath: path] = value }
    }

    /// A flag whose default (nil) depends on other settings.
    static func optionalBoolean(_ key: String, _ path: WritableKeyPath<Settings, Bool?> & Sendable) -> SettingSpec {
        flag(key) { settings, value in settings[keyPath: path] = value }
    }

    private static func flag(_ key: String, _ set: @escaping @Sendable (inout Settings, Bool) -> Void) -> SettingSpec {
        SettingSpec(key: key) { settings, text throws(SettingValueError) in
            switch text.lowercased() {
            case "true", "1", "yes", "on": set(&settings, true)
            case "false", "0", "no", "off": set(&settings, false)
            default: throw SettingValueError(expected: "true or false")
            }
        }
    }

    /// Space- or comma-separated words.
    static func list(_ key: String, _ path: WritableKeyPath<Settings, [String]> & Sendable) -> SettingSpec {
        SettingSpec(key: key) { settings, text throws(SettingValueError) in
            settings[keyPath: path] = SettingsCatalog.listItems(text)
        }
    }
}
