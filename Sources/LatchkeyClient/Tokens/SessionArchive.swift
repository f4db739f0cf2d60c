import Foundation

/// The bytes a persistent token store keeps: `{"format":1,"session":{…}}` as JSON.
///
/// An app update must never sign anyone out, the complaint Firebase's iOS SDK drew most:
/// the format number lets a later version of this library read what an earlier one
/// wrote, fields a reader does not know are ignored, and missing ones take defaults
/// (`StoredSession.init(from:)`). Public, so a store of your own (an encrypted file, an
/// app-group container) writes the same bytes.
public enum SessionArchive {
    /// The format this version writes.
    public static let currentFormat = 1

    private struct Envelope: Codable {
        let format: Int
        let session: StoredSession
    }

    public static func encode(_ session: StoredSession) throws -> Data {
        try JSONCoding.encode(Envelope(format: currentFormat, session: session))
    }

    /// Decodes any format up to this version's, and later ones as far as their fields are
    /// the ones this version knows.
    public static func decode(_ data: Data) throws -> StoredSession {
        try JSONCoding.decode(Envelope.self, from: data).session
    }
}
