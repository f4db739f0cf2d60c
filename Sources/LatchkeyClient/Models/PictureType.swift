import Foundation

/// The picture formats `PUT /v1/users/me/photo` takes; the server checks the bytes against
/// the type and removes metadata (such as a GPS position) before storing them.
public enum PictureType: String, Sendable, Hashable, CaseIterable {
    case jpeg = "image/jpeg"
    case png = "image/png"
    case webp = "image/webp"

    /// The media type sent as `Content-Type`.
    public var mediaType: String { rawValue }

    /// The type a file name's extension names (`jpg`, `jpeg`, `png`, `webp`, any case).
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "jpg", "jpeg": self = .jpeg
        case "png": self = .png
        case "webp": self = .webp
        default: return nil
        }
    }
}

/// How far an upload has got: bytes handed to the network so far, of how many.
public struct UploadProgress: Sendable, Hashable {
    public let bytesSent: Int64
    /// The body's size; nil when the system could not tell it.
    public let totalBytes: Int64?

    public init(bytesSent: Int64, totalBytes: Int64?) {
        self.bytesSent = bytesSent
        self.totalBytes = totalBytes
    }

    /// From 0 to 1, for a progress bar; 0 while the total is unknown.
    public var fractionCompleted: Double {
        guard let totalBytes, totalBytes > 0 else { return 0 }
        return min(1, Double(bytesSent) / Double(totalBytes))
    }
}
