#if canImport(Security)
import Foundation
import Security

/// Keeps the session in the Keychain (iOS, macOS): one generic-password item holding
/// `SessionArchive` bytes. Its choices answer the ways Firebase's iOS SDK logged people
/// out unexpectedly:
///
/// - **Upgrades read what earlier versions wrote.** The item's service and account are
///   yours to name and this library never renames them; the contents carry a format
///   number and tolerate fields they do not know.
/// - **`kSecAttrAccessibleAfterFirstUnlock`** by default: the item is readable whenever
///   the device has been unlocked once since it started, so an app launched in the
///   background (a push, a background refresh) finds the session and can refresh it;
///   `WhenUnlocked` would make such launches look signed out. `.afterFirstUnlockThisDeviceOnly`
///   keeps the session out of backups (a restored device then signs in again).
/// - **An access group, chosen once.** Give the app and its extensions the same
///   `accessGroup` (an entry of their keychain-access-groups entitlement, such as
///   `TEAMID.com.example.shared`) so they share one session. Changing the group later puts
///   the old item out of reach, which looks like a sign-out: pick it before the first release.
/// - **A read that fails is not a sign-out.** A locked keychain throws, and the client
///   asks again on its next call instead of forgetting the user.
/// - **Saving updates the item in place** (`SecItemUpdate`, `SecItemAdd` only when it is
///   missing), never delete-then-add, so no crash can fall between the two.
public struct KeychainTokenStore: TokenStore {
    public enum Accessibility: Sendable, Hashable {
        case afterFirstUnlock
        case afterFirstUnlockThisDeviceOnly

        var attribute: CFString {
            switch self {
            case .afterFirstUnlock: kSecAttrAccessibleAfterFirstUnlock
            case .afterFirstUnlockThisDeviceOnly: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly
            }
        }
    }

    public let service: String
    public let account: String
    public let accessGroup: String?
    public let accessibility: Accessibility

    public init(
        service: String = "latchkey.session", account: String = "default", accessGroup: String? = nil,
        accessibility: Accessibility = .afterFirstUnlock
    ) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
        self.accessibility = accessibility
    }

    /// The attributes that name the item (never its contents); the device token is an item
    /// of its own (`<account>.device`), which sign-out leaves.
    private func itemQuery(device: Bool = false) -> [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: device ? account + ".device" : account,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private var itemQuery: [String: Any] { itemQuery() }

    private func read(device: Bool) throws -> Data? {
        var query = itemQuery(device: device)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw KeychainError(status: status) }
        return data
    }

    private func write(_ data: Data, device: Bool) throws {
        let attributes: [String: Any] = [kSecValueData as String: data, kSecAttrAccessible as String: accessibility.attribute]
        var status = SecItemUpdate(itemQuery(device: device) as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(itemQuery(device: device).merging(attributes) { $1 } as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
    }

    public func load() async throws -> StoredSession? {
        try read(device: false).map(SessionArchive.decode)
    }

    public func save(_ session: StoredSession) async throws {
        try write(try SessionArchive.encode(session), device: false)
    }

    public func loadDeviceToken() async throws -> String? {
        try read(device: true).map { String(decoding: $0, as: UTF8.self) }
    }

    public func saveDeviceToken(_ token: String) async throws {
        try write(Data(token.utf8), device: true)
    }

    public func clear() async throws {
        let status = SecItemDelete(itemQuery as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }
}

/// A Keychain call failed with `status` (an `OSStatus`; `errSecInteractionNotAllowed`,
/// -25308, while the device is locked).
public struct KeychainError: Error, Sendable, Hashable {
    public let status: OSStatus
}
#endif
