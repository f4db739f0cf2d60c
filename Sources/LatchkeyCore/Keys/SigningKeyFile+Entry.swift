import AuthCrypto
import FoundationEssentials

extension SigningKeyFile {
    /// One line of the file. An HMAC key is `kid:base64secret:createdAt` (a file of an
    /// earlier version has `kid:base64secret`); a P-256 key `kid:ES256:base64pkcs8:createdAt`
    /// (the PKCS#8 DER of its PEM); a retired P-256 key, whose private half is gone,
    /// `kid:ES256-retired:base64(x ‖ y):createdAt:retiredAt`.
    public struct Entry: Sendable {
        public enum Material: Sendable {
            case hs256(SigningKey)
            case es256(ES256SigningKey)
            /// The public point of a retired P-256 key, published until its tokens expire.
            case retiredES256(x: [UInt8], y: [UInt8], retiredAt: Int64)
        }

        public let id: String
        public let material: Material
        /// Unix seconds; for a line of an earlier version, the file's modification time.
        public let createdAt: Int64

        public var algorithm: AccessTokenAlgorithm {
            if case .hs256 = material { .hs256 } else { .es256 }
        }

        public var isRetired: Bool {
            if case .retiredES256 = material { true } else { false }
        }

        /// Whether a retired key's last token has expired, so nobody needs its public half.
        func publicationEnded(now: Int64, lifetime: Int64) -> Bool {
            guard case .retiredES256(_, _, let retiredAt) = material else { return false }
            return now > retiredAt + lifetime
        }

        /// What stays of it once retired: nil for an HMAC key (nothing to publish).
        func retired(at now: Int64) -> Entry? {
            guard case .es256(let key) = material else { return nil }
            return Entry(id: id, material: .retiredES256(x: key.privateKey.publicX, y: key.privateKey.publicY, retiredAt: now), createdAt: createdAt)
        }

        init(id: String, material: Material, createdAt: Int64) {
            self.id = id
            self.material = material
            self.createdAt = createdAt
        }

        static func generate(_ algorithm: AccessTokenAlgorithm) -> Entry {
            let id = SecureRandom.bytes(6).map { String($0, radix: 16).leftPadded(to: 2) }.joined()
            // A 12-digit hex id and 64 random bytes or a fresh P-256 key: valid by construction.
            let material: Material = switch algorithm {
            case .hs256: .hs256(try! SigningKey(id: id, secret: SecureRandom.bytes(64)))
            case .es256: .es256(try! ES256SigningKey(id: id, privateKey: P256PrivateKey.generate()))
            }
            return Entry(id: id, material: material, createdAt: UnixTime.now())
        }

        init?(line: Substring, modified: Int64) {
            let fields = line.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 2 else { return nil }
            id = fields[0]
            switch (fields[1], fields.count) {
            case ("ES256", 4):
                guard let der = Data(base64Encoded: fields[2]), let createdAt = Int64(fields[3]),
                      let privateKey = try? P256PrivateKey(pem: Self.pem(der: Array(der))),
                      let key = try? ES256SigningKey(id: id, privateKey: privateKey) else { return nil }
                material = .es256(key)
                self.createdAt = createdAt
            case ("ES256-retired", 5):
                guard let point = Data(base64Encoded: fields[2]), point.count == 64,
                      let createdAt = Int64(fields[3]), let retiredAt = Int64(fields[4]),
                      (try? JSONWebKey.p256(x: Array(point.prefix(32)), y: Array(point.suffix(32)), keyID: id)) != nil
                else { return nil }
                material = .retiredES256(x: Array(point.prefix(32)), y: Array(point.suffix(32)), retiredAt: retiredAt)
                self.createdAt = createdAt
            case (_, 2), (_, 3):
                guard let secret = Data(base64Encoded: fields[1]), let key = try? SigningKey(id: id, secret: Array(secret)),
                      let createdAt = fields.count == 3 ? Int64(fields[2]) : modified else { return nil }
                material = .hs256(key)
                self.createdAt = createdAt
            default:
                return nil
            }
        }

        var line: String {
            switch material {
            case .hs256(let key):
                "\(id):\(Data(key.secret).base64EncodedString()):\(createdAt)"
            case .es256(let key):
                "\(id):ES256:\(Self.base64Body(ofPEM: key.privateKey.pkcs8PEM)):\(createdAt)"
            case .retiredES256(let x, let y, let retiredAt):
                "\(id):ES256-retired:\(Data(x + y).base64EncodedString()):\(createdAt):\(retiredAt)"
            }
        }

        /// A PEM's body is the base64 of its DER, wrapped; joined, it fits on one line.
        private static func base64Body(ofPEM pem: String) -> String {
            pem.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("-----") }.joined()
        }

        private static func pem(der: [UInt8]) -> String {
            let body = Array(Data(der).base64EncodedString().utf8)
            let lines = stride(from: 0, to: body.count, by: 64).map { String(decoding: body[$0..<min($0 + 64, body.count)], as: UTF8.self) }
            return "-----BEGIN PRIVATE KEY-----\n" + lines.joined(separator: "\n") + "\n-----END PRIVATE KEY-----\n"
        }
    }
}
