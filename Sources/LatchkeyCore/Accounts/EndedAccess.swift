/// What an account event ended, as every instance must hear it: the sessions whose
/// streams close, whether the account is gone, and when its user went offline (no live
/// session left), so each instance tells its own watchers. Every one of them also ends
/// each instance's copy of the account (`SessionCache`).
public struct EndedAccess: Sendable, Equatable {
    public enum Sessions: Sendable, Equatable {
        case one(String)
        /// Every session of the user but the one named, if any.
        case allBut(String?)
        /// None: only the account changed (`AccountEvent.profileChanged`).
        case noSession
    }

    public let userID: String
    public let sessions: Sessions
    public let accountDeleted: Bool
    /// Set when the event left the user without a live session: the moment they went offline.
    public let offlineAt: Int64?

    /// One line for NOTIFY or the SQLite feed: `<sessions> <deleted> <offlineAt> <userID>`,
    /// the user id last (an imported one may hold anything); sessions `1:<id>`, `*`, `*:<kept>`
    /// or `-` for none.
    var payload: String {
        let sessions = switch sessions {
        case .one(let id): "1:" + id
        case .allBut(nil): "*"
        case .allBut(let kept?): "*:" + kept
        case .noSession: "-"
        }
        return "\(sessions) \(accountDeleted ? 1 : 0) \(offlineAt.map(String.init) ?? "-") \(userID)"
    }

    init(userID: String, sessions: Sessions, accountDeleted: Bool, offlineAt: Int64?) {
        self.userID = userID
        self.sessions = sessions
        self.accountDeleted = accountDeleted
        self.offlineAt = offlineAt
    }

    /// Nil for anything malformed.
    init?(payload: Substring) {
        let fields = payload.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false)
        guard fields.count == 4, !fields[3].isEmpty else { return nil }
        let scope = fields[0]
        if scope.utf8.starts(with: "1:".utf8), scope.utf8.count > 2 {
            sessions = .one(String(scope.dropFirst(2)))
        } else if scope.utf8.elementsEqual("*".utf8) {
            sessions = .allBut(nil)
        } else if scope.utf8.starts(with: "*:".utf8), scope.utf8.count > 2 {
            sessions = .allBut(String(scope.dropFirst(2)))
        } else if scope.utf8.elementsEqual("-".utf8) {
            sessions = .noSession
        } else {
            return nil
        }
        if fields[1].utf8.elementsEqual("0".utf8) {
            accountDeleted = false
        } else if fields[1].utf8.elementsEqual("1".utf8) {
            accountDeleted = true
        } else {
            return nil
        }
        if fields[2].utf8.elementsEqual("-".utf8) {
            offlineAt = nil
        } else if let at = Int64(fields[2]) {
            offlineAt = at
        } else {
            return nil
        }
        userID = String(fields[3])
    }
}
