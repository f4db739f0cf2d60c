/// PNG (ISO 15948): the signature, then chunks of a 32-bit big-endian length, a 4-letter
/// type, the data and a CRC, ending with `IEND`.
enum PNGMetadata {
    /// What may stay: the image and how to show its colours. Every other chunk goes, known
    /// (text, time, `eXIf`, C2PA's `caBX`) or not: a new kind of metadata is not let in by
    /// being new.
    static let kept: [StaticString] = ["IHDR", "PLTE", "tRNS", "gAMA", "cHRM", "sRGB", "iCCP", "sBIT", "pHYs", "IDAT", "IEND"]

    static func plan(_ bytes: some PictureBytes) throws(PictureFormatError) -> StripPlan {
        guard bytes.count >= 8, ImageFormat(sniffing: bytes.bytes(0..<8)) == .png else { throw .malformed("no PNG signature") }
        var plan = StripPlan()
        plan.keep(0..<8)
        var index = 8
        while index + 12 <= bytes.count {
            let length = bytes.bigEndian32(at: index)
            let end = index + 12 + length
            guard length <= 0x7FFF_FFFF, end <= bytes.count else { throw .malformed("a PNG chunk runs past the end") }
            if kept.contains(where: { bytes.has($0, at: index + 4) }) { plan.keep(index..<end) }
            if bytes.has("IEND", at: index + 4) { return plan }
            index = end
        }
        throw .malformed("no PNG IEND chunk")
    }
}
