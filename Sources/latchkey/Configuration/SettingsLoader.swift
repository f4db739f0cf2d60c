import FoundationEssentials

/// A configuration problem, said in one line a person can act on.
struct ConfigurationError: Error, CustomStringConvertible {
    let description: String
}

/// Builds `Settings` with the precedence flags > environment > config file > defaults.
enum SettingsLoader {
    static func load(arguments: [String], environment: [String: String]) throws(ConfigurationError) -> Settings {
        var flags = try parseFlags(arguments)
        let configPath = flags.removeValue(forKey: "--config") ?? environment["LATCHKEY_CONFIG"]
        var settings = Settings()
        if let configPath {
            for (key, value) in try readConfigFile(configPath) {
                guard let spec = SettingsCatalog.all.first(where: { $0.key == key }) else {
                    throw ConfigurationError(description: "unknown setting '\(key)' in \(configPath)")
                }
                try apply(spec, value, source: "\(key) in \(configPath)", to: &settings)
            }
        }
        for spec in SettingsCatalog.all {
            if let value = environment[spec.environmentName] {
                try apply(spec, value, source: spec.environmentName, to: &settings)
            }
        }
        for (flag, value) in flags {
            guard let spec = SettingsCatalog.all.first(where: { $0.flagName == flag }) else {
                throw ConfigurationError(description: "unknown option \(flag) (see latchkey --help)")
            }
            try apply(spec, value, source: flag, to: &settings)
        }
        return settings
    }

    private static func apply(_ spec: SettingSpec, _ value: String, source: String, to settings: inout Settings) throws(ConfigurationError) {
        do {
            try spec.apply(&settings, value)
        } catch {
            // Key material and URLs that may carry a password are never echoed back, not
            // even in an error.
            let shown = ["signingKeys", "smtpURL", "database", "metricsToken"].contains(spec.key) ? "" : " '\(value)'"
            throw ConfigurationError(description: "invalid value\(shown) for \(source): expected \(error.expected)")
        }
    }

    /// `--name value` and `--name=value`; the last occurrence wins.
    private static func parseFlags(_ arguments: [String]) throws(ConfigurationError) -> [String: String] {
        var flags: [String: String] = [:]
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            guard argument.hasPrefix("--"), argument.count > 2 else {
                throw ConfigurationError(description: "unexpected argument '\(argument)' (see latchkey --help)")
            }
            if let equals = argument.firstIndex(of: "=") {
                flags[String(argument[..<equals])] = String(argument[argument.index(after: equals)...])
            } else {
                guard index + 1 < arguments.count else { throw ConfigurationError(description: "option \(argument) needs a value") }
                flags[argument] = arguments[index + 1]
                index += 1
            }
            index += 1
        }
        return flags
    }

    /// A JSON object of settings; numbers, booleans and arrays become the same text the
    /// environment would carry, so one parser serves every source.
    private static func readConfigFile(_ path: String) throws(ConfigurationError) -> [(String, String)] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(description: "cannot read config file \(path)")
        }
        guard let object = try? JSONDecoder().decode([String: ConfigValue].self, from: data) else {
            throw ConfigurationError(description: "config file \(path) is not a JSON object of settings")
        }
        // "//" keys are comments; null keeps the built-in default.
        return object.sorted { $0.key < $1.key }.compactMap { key, value in
            guard !key.hasPrefix("//"), let text = value.text else { return nil }
            return (key, text)
        }
    }
}

/// A config file value, kept as the text the environment would carry (nil for null).
private struct ConfigValue: Decodable {
    let text: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            text = nil
        } else if let bool = try? container.decode(Bool.self) {
            text = bool ? "true" : "false"
        } else if let integer = try? container.decode(Int.self) {
            text = String(integer)
        } else if let string = try? container.decode(String.self) {
            text = string
        } else if let array = try? container.decode([ConfigValue].self) {
            text = array.compactMap(\.text).joined(separator: ",")
        } else if let structured = try? container.decode(ConfigJSON.self) {
            // A list of objects (`oidcProviders`): its JSON, as the environment carries it.
            text = String(decoding: try JSONEncoder().encode(structured), as: UTF8.self)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unsupported value")
        }
    }
}

/// Any JSON value, read and written again: the text of a structured setting.
private enum ConfigJSON: Codable {
    case null, bool(Bool), number(Double), string(String), array([ConfigJSON]), object([String: ConfigJSON])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let bool = try? container.decode(Bool.self) { self = .bool(bool) }
        else if let number = try? container.decode(Double.self) { self = .number(number) }
        else if let string = try? container.decode(String.self) { self = .string(string) }
        else if let array = try? container.decode([ConfigJSON].self) { self = .array(array) }
        else { self = .object(try container.decode([String: ConfigJSON].self)) }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
