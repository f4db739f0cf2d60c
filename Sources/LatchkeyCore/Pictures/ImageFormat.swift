/// The picture formats Latchkey stores. A file's format is read from its first bytes; the
/// type a client declares must agree with them.
public enum ImageFormat: String, Sendable, CaseIterable {
    case jpeg, png, webp

    public var mediaType: String { "image/\(rawValue)" }

    public var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        }
    }

    /// The format a `Content-Type` names (`image/jpeg`, parameters ignored), compared as
    /// ASCII bytes with letters folded; nil for any other type.
    public init?(mediaType: some Collection<UInt8>) {
        let essence = mediaType.prefix { $0 != UInt8(ascii: ";") }.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        var end = essence.endIndex
        while end > 0, essence[end - 1] == 0x20 || essence[end - 1] == 0x09 { end -= 1 }
        guard let format = Self.allCases.first(where: { Array($0.mediaType.utf8) == Array(essence[..<end]) }) else { return nil }
        self = format
    }

    /// The format whose signature `bytes` start with, or nil.
    public init?(sniffing bytes: some Collection<UInt8>) {
        let head = Array(bytes.prefix(12))
        if head.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if head.count == 12, head[0..<4] == [0x52, 0x49, 0x46, 0x46], head[8..<12] == [0x57, 0x45, 0x42, 0x50] {
            self = .webp
        } else {
            return nil
        }
    }

    /// Bytes enough to sniff any format.
    public static let signatureLength = 12
}
