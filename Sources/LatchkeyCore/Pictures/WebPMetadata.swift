/// WebP (RIFF): `RIFF`, a 32-bit little-endian size, `WEBP`, then chunks of a four-letter
/// code, a little-endian size and the data padded to an even length. VP8X's first byte
/// announces EXIF (0x08) and XMP (0x04) chunks.
enum WebPMetadata {
    static func plan(_ bytes: some PictureBytes) throws(PictureFormatError) -> StripPlan {
        guard bytes.count >= 12, ImageFormat(sniffing: bytes.bytes(0..<12)) == .webp else { throw .malformed("no WebP RIFF header") }
        let riffEnd = 8 + bytes.littleEndian32(at: 4)
        guard riffEnd >= 12, riffEnd <= bytes.count else { throw .malformed("the WebP RIFF size runs past the end") }
        var chunks = StripPlan()
        var droppedAny = false
        var index = 12
        while index < riffEnd {
            guard index + 8 <= riffEnd else { throw .malformed("a WebP chunk header is cut off") }
            let size = bytes.littleEndian32(at: index + 4)
            guard index + 8 + size <= riffEnd else { throw .malformed("a WebP chunk runs past the end") }
            // The padding byte of an odd-sized last chunk is sometimes left out.
            let end = min(index + 8 + size + size % 2, riffEnd)
            if bytes.has("EXIF", at: index) || bytes.has("XMP ", at: index) {
                droppedAny = true
            } else if bytes.has("VP8X", at: index), size >= 1 {
                chunks.keep(index..<index + 8)
                chunks.add([bytes[index + 8] & ~UInt8(0x08 | 0x04)])
                chunks.keep(index + 9..<end)
            } else {
                chunks.keep(index..<end)
            }
            index = end
        }
        var plan = StripPlan()
        guard droppedAny else {
            plan.keep(0..<riffEnd)
            return plan
        }
        let size = 4 + chunks.count  // "WEBP" and the chunks
        plan.add(Array("RIFF".utf8) + (0..<4).map { UInt8(truncatingIfNeeded: size >> (8 * $0)) } + Array("WEBP".utf8))
        plan.append(chunks)
        return plan
    }
}
