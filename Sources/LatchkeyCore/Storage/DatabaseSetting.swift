/// The `database` setting: SQLite in the data directory (one instance), or a PostgreSQL
/// URL shared by several instances.
public enum DatabaseSetting: Sendable, Equatable {
    case sqlite
    /// `postgres://user:password@host:port/database` (or `postgresql://`), as libpq takes it.
    case postgres(url: String)

    /// Nil for anything but `sqlite` or a `postgres://` / `postgresql://` URL.
    public init?(_ text: String) {
        if text == "sqlite" {
            self = .sqlite
            return
        }
        guard Self.schemes.contains(where: { text.hasPrefix($0) }),
              !text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        self = .postgres(url: text)
    }

    private static let schemes = ["postgres://", "postgresql://"]

    /// What a log line may show: `sqlite`, or the URL as `postgres://user@host:port/db`,
    /// without its password and without its query (which may carry `password=` too).
    public var redacted: String {
        switch self {
        case .sqlite: return "sqlite"
        case .postgres(let url): return Self.redacting(url)
        }
    }

    static func redacting(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://")?.upperBound else { return "postgres://" }
        let rest = url[schemeEnd...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var shown = String(url[..<schemeEnd])
        if let at = authority.lastIndex(of: "@") {
            let user = authority[..<at].prefix { $0 != ":" }
            if !user.isEmpty { shown += user + "@" }
            shown += authority[authority.index(after: at)...]
        } else {
            shown += authority
        }
        return shown + rest[authorityEnd...].prefix { $0 != "?" }
    }
}
