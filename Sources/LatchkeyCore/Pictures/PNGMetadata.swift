/// PNG (ISO 15948): the signature, then chunks of a 32-bit big-endian length, a 4-letter
/// type, the data and a CRC, ending with `IEND`.
enum PNGMetadata {
    static let dropped: Set<String> = ["tEXt", "zTXt", "iTXt", "tIME", "eXIf"]

    static func stripped(_ bytes: [UInt8]) throws(PictureFormatError) -> [UInt8] {
        guard ImageFormat(sniffing: bytes) == .png else { throw .malformed("no PNG signature") }
        var output = Array(bytes[0..<8])
        output.reserveCapacity(bytes.count)
        var index = 8
        while index + 12 <= bytes.count {
            let length = bytes.bigEndian32(at: index)
            let end = index + 12 + length
            guard length <= 0x7FFF_FFFF, end <= bytes.count else { throw .malformed("a PNG chunk runs past the end") }
            let type = String(decoding: bytes[index + 4..<index + 8], as: UTF8.self)
            if !dropped.contains(type) { output += bytes[index..<end] }
            index = end
            if type == "IEND" { return output }
        }
        throw .malformed("no PNG IEND chunk")
    }
}
