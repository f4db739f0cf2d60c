/// WebP (RIFF): `RIFF`, a 32-bit little-endian size, `WEBP`, then chunks of a four-letter
/// code, a little-endian size and the data padded to an even length. VP8X's first byte
/// announces EXIF (0x08) and XMP (0x04) chunks. An animation frame (`ANMF`) holds 16 bytes
/// of placement, then chunks of its own.
enum WebPMetadata {
    /// What may stay: the image, its alpha, animation and ICC profile. Every other chunk
    /// goes, known (`EXIF`, `XMP `, C2PA's `C2PA`) or not.
    static let kept: [StaticString] = ["VP8 ", "VP8L", "VP8X", "ALPH", "ANIM", "ANMF", "ICCP"]
    /// Inside a frame: its bitstream and alpha (the format lets unknown chunks follow them).
    static let keptInFrame: [StaticString] = ["VP8 ", "VP8L", "ALPH"]
    static let exifAndXMPFlags: UInt8 = 0x08 | 0x04

    static func plan(_ bytes: some PictureBytes) throws(PictureFormatError) -> StripPlan {
        guard bytes.count >= 12, ImageFormat(sniffing: bytes.bytes(0..<12)) == .webp else { throw .malformed("no WebP RIFF header") }
        let riffEnd = 8 + bytes.littleEndian32(at: 4)
        guard riffEnd >= 12, riffEnd <= bytes.count else { throw .malformed("the WebP RIFF size runs past the end") }
        let chunks = try filter(bytes, 12..<riffEnd, keeping: kept)
        var plan = StripPlan()
        guard chunks.changed else {
            plan.keep(0..<riffEnd)  // anything after the RIFF container goes
            return plan
        }
        plan.add(Array("RIFF".utf8) + littleEndian32(4 + chunks.plan.count) + Array("WEBP".utf8))
        plan.append(chunks.plan)
        return plan
    }

    /// The chunks of `range` that `allowed` names, VP8X without the flags of what went, and
    /// frames without what they held beside their image; `changed` when anything differs.
    private static func filter(
        _ bytes: some PictureBytes, _ range: Range<Int>, keeping allowed: [StaticString]
    ) throws(PictureFormatError) -> (plan: StripPlan, changed: Bool) {
        var chunks = StripPlan()
        var changed = false
        var index = range.lowerBound
        while index < range.upperBound {
            guard index + 8 <= range.upperBound else { throw .malformed("a WebP chunk header is cut off") }
            let size = bytes.littleEndian32(at: index + 4)
            guard size <= range.upperBound - index - 8 else { throw .malformed("a WebP chunk runs past the end") }
            // The padding byte of an odd-sized last chunk is sometimes left out.
            let end = min(index + 8 + size + size % 2, range.upperBound)
            if !allowed.contains(where: { bytes.has($0, at: index) }) {
                changed = true
            } else if bytes.has("VP8X", at: index), size >= 1, bytes[index + 8] & exifAndXMPFlags != 0 {
                changed = true
                chunks.keep(index..<index + 8)
                chunks.add([bytes[index + 8] & ~exifAndXMPFlags])
                chunks.keep(index + 9..<end)
            } else if bytes.has("ANMF", at: index), size >= 16,
                      case let frame = try filter(bytes, index + 24..<index + 8 + size, keeping: keptInFrame), frame.changed {
                changed = true
                let frameSize = 16 + frame.plan.count
                chunks.add(Array("ANMF".utf8) + littleEndian32(frameSize))
                chunks.keep(index + 8..<index + 24)
                chunks.append(frame.plan)
                if frameSize % 2 == 1 { chunks.add([0]) }
            } else {
                chunks.keep(index..<end)
            }
            index = end
        }
        return (chunks, changed)
    }

    private static func littleEndian32(_ value: Int) -> [UInt8] {
        (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
