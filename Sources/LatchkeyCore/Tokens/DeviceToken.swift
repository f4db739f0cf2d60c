import AuthCrypto

/// OWASP's device cookie, as a token the app keeps: a device that once logged in with the
/// right password proves it with this, and its login is then counted against that device
/// alone, never refused for the account-wide count or its address's (so a stranger's
/// guesses cannot lock the owner out). Signed with a key derived from the refresh-token
/// key (outside the database), bound to the account and to its password epoch: a password
/// change or reset moves the epoch on (`AccountEvent.voidsDeviceTokens`) and every older
/// token is void. Nothing is stored per device.
///
/// Layout, base64url: device id (16 random bytes) ‖ epoch (8 bytes, big-endian) ‖
/// HMAC-SHA256 of "device" ‖ 0 ‖ user id ‖ 0 ‖ device id ‖ epoch.
struct DeviceToken: Sendable, Equatable {
    static let idLength = 16
    static let length = idLength + 8 + HMACSHA256.codeLength

    static func make(userID: String, epoch: Int64, reusing deviceID: [UInt8]? = nil, key: HMACKey) -> String {
        let id = deviceID ?? SecureRandom.bytes(idLength)
        let epochBytes = bigEndian(epoch)
        return Base64URL.encode(id + epochBytes + key.authenticationCode(message(userID: userID, id: id, epoch: epochBytes)))
    }

    /// The device of `token` when it is this account's and of its current epoch; nil for
    /// anything else (another account's, an older password's, forged, malformed).
    init?(verifying token: String, userID: String, epoch: Int64, key: HMACKey) {
        guard token.utf8.count <= 2 * Self.length, let bytes = Base64URL.decode(token), bytes.count == Self.length else { return nil }
        let id = Array(bytes[0..<Self.idLength])
        let epochBytes = Array(bytes[Self.idLength..<Self.idLength + 8])
        let code = Array(bytes[(Self.idLength + 8)...])
        let expected = key.authenticationCode(Self.message(userID: userID, id: id, epoch: epochBytes))
        guard ConstantTime.equals(code, expected), epochBytes == Self.bigEndian(epoch) else { return nil }
        rawID = id
    }

    /// The id as made, so a login keeps its device's token stable.
    let rawID: [UInt8]

    /// Hex, for the failure counter's scope.
    var deviceID: String {
        rawID.map { $0 < 16 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    private static func message(userID: String, id: [UInt8], epoch: [UInt8]) -> [UInt8] {
        Array("device".utf8) + [0] + Array(userID.utf8) + [0] + id + epoch
    }

    private static func bigEndian(_ value: Int64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> (56 - 8 * $0)) }
    }
}
